/**
 * What each simulated upstream answers in a scenario's phase, and how it can fail: the schemas
 * parseScenario (scenario.ts) checks a scenario's phases against, and their types.
 */
import { z } from 'zod';
import { isCalendarDate, isRfc3339Instant } from '../domain/calendar.js';
import type { ComponentKind } from '../domain/component.js';

/** Failures every simulated upstream can answer with. */
export const COMMON_FAILS = [
  'rate_limit_403',
  'rate_limit_429',
  'secondary_rate_limit',
  'secondary_rate_limit_no_headers',
  'server_error',
  'timeout',
  'reset',
  'malformed',
  'not_found',
  'unauthorized',
] as const;
/** Each upstream's failures: the common ones plus those only it has. */
export const FAILS = {
  github: [...COMMON_FAILS, 'dmca', 'tos_block', 'forbidden', 'empty_repo'],
  npm: [...COMMON_FAILS, 'unpublished', 'security_holding'],
  pypi: [...COMMON_FAILS, 'all_yanked'],
  docker: [...COMMON_FAILS],
  // Sonatype's 403 for excessive use; a release whose POM is missing (old artifacts).
  maven: [...COMMON_FAILS, 'blocked', 'pom_missing'],
  // The proxy's older 410 for what it cannot serve.
  golang: [...COMMON_FAILS, 'gone_410'],
  gem: [...COMMON_FAILS, 'all_yanked'],
  cargo: [...COMMON_FAILS],
  nuget: [...COMMON_FAILS],
  composer: [...COMMON_FAILS],
  endoflife: [...COMMON_FAILS],
  dependents: [...COMMON_FAILS],
  osv: [...COMMON_FAILS],
  osvExport: [...COMMON_FAILS],
} as const;
export type Fail = (typeof FAILS)[keyof typeof FAILS][number];
/** How GitHub's GraphQL endpoint can fail a whole query (a repository's own failure is its phase's). */
export const GRAPHQL_FAILS = [
  'server_error',
  'timeout',
  'reset',
  'malformed',
  'secondary_rate_limit',
  'secondary_rate_limit_200',
  'unauthorized',
] as const;
export type CommonFail = (typeof COMMON_FAILS)[number];

const instant = z.string().refine(isRfc3339Instant, 'must be an RFC 3339 instant such as 2025-01-31T12:00:00Z');
const date = z.string().refine(isCalendarDate, 'must be a date written YYYY-MM-DD');
const base = {
  from: date,
  /** For `fail: "server_error"`: which 5xx (default 500; endoflife's Netlify says 502/503). */
  status: z.number().int().min(500).max(599).optional(),
};
/** A package the dependents source (ecosyste.ms) indexes: what it counts (absent: it answers 404). */
const adoption = {
  dependents: z.number().int().min(0).nullable().optional(),
  dependents_fail: z.enum(FAILS.dependents).optional(),
};

const GithubPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.github).optional(),
  pushed_at: instant.nullable().optional(),
  /** Committer date of the default branch's head commit (default: pushed_at). */
  last_commit: instant.optional(),
  created_at: instant.optional(),
  archived: z.boolean().optional(),
  disabled: z.boolean().optional(),
  fork: z.boolean().optional(),
  id: z.number().int().positive().optional(),
  default_branch: z.string().optional(),
  /** A rename or transfer: the old name answers 301 to /repositories/{id}, which names the new one. */
  renamed_to: z
    .string()
    .regex(/^[A-Z0-9-]+\/[\w.-]+$/i, 'must be owner/repo')
    .optional(),
});

/** GitHub's GraphQL endpoint (`POST /github/graphql`): its point limits, and a failure of whole queries. */
export const GithubGraphql = z.strictObject({
  /** The primary limit (default 5,000 points an hour, GitHub's for a user token). */
  points_per_hour: z.number().int().positive().optional(),
  /** The secondary limit (default 2,000 points a minute). */
  points_per_minute: z.number().int().positive().optional(),
  fail: z.enum(GRAPHQL_FAILS).optional(),
  /** For `fail: "server_error"`: which 5xx (default 502, GitHub's answer to a query over its 10 s). */
  status: z.number().int().min(500).max(599).optional(),
  /** Only the first this many queries fail (unset: every one). */
  fail_count: z.number().int().positive().optional(),
});
export type GithubGraphqlScenario = z.infer<typeof GithubGraphql>;

const NpmPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.npm).optional(),
  /** version → publish instant. */
  versions: z.record(z.string(), instant).optional(),
  latest: z.string().optional(),
  /** A deprecation message on the latest version. */
  deprecated: z.string().optional(),
  /** Unpublished versions: their `time` entries stay in the packument (the trap of research §2.1). */
  removed_versions: z.record(z.string(), instant).optional(),
  description: z.string().optional(),
  repository: z.string().optional(),
  /** The latest version's declared interface and direct dependencies (name → range). */
  license: z.string().optional(),
  engines: z.record(z.string(), z.string()).optional(),
  exports: z.boolean().optional(),
  types: z.boolean().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  ...adoption,
});

const PypiFile = z.strictObject({
  upload_time: instant,
  yanked: z.boolean().optional(),
  filename: z.string().optional(),
});
const PypiPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.pypi).optional(),
  /** version → its files, or one upload instant (one sdist), or [] for a release without files. */
  releases: z.record(z.string(), z.union([instant, z.array(PypiFile)])).optional(),
  /** Versions yanked whole. */
  yanked: z.array(z.string()).optional(),
  classifiers: z.array(z.string()).optional(),
  project_status: z.enum(['active', 'archived', 'quarantined', 'deprecated']).optional(),
  project_status_reason: z.string().optional(),
});

const DockerPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.docker).optional(),
  tag_last_pushed: instant.optional(),
  last_updated: instant.optional(),
  tag_status: z.enum(['active', 'inactive']).optional(),
  digest: z.string().optional(),
});

const MavenPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.maven).optional(),
  /** version → when it reached Central (its POM's Last-Modified). */
  versions: z.record(z.string(), instant).optional(),
  /** What <release> says (default: the version published last); Central's hint is not always the highest. */
  release: z.string().optional(),
  /** A <relocation> in every POM from this phase on: the artifact moved. */
  relocation: z
    .strictObject({
      group_id: z.string().optional(),
      artifact_id: z.string().optional(),
      version: z.string().optional(),
      message: z.string().optional(),
    })
    .optional(),
});

const GolangPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.golang).optional(),
  /** version → its commit time (what the proxy reports as Time). */
  versions: z.record(z.string(), instant).optional(),
  /** What @latest answers (default: the version with the latest time). */
  latest: z.string().optional(),
  /** A `// Deprecated:` notice in the latest go.mod. */
  deprecated: z.string().optional(),
  /** `retract` directives in the latest go.mod. */
  retracted: z.array(z.string()).optional(),
});

const GemPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.gem).optional(),
  /** version → its publication instant. */
  versions: z.record(z.string(), instant).optional(),
  /** Versions yanked: rubygems.org no longer lists them. */
  yanked: z.array(z.string()).optional(),
});

const CargoPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.cargo).optional(),
  /** version → its publication instant. */
  versions: z.record(z.string(), instant).optional(),
  yanked: z.array(z.string()).optional(),
  /** The versions predate the index's pubtime field: only the crates API dates them. */
  no_pubtime: z.boolean().optional(),
  /** OSV records (as api.osv.dev serves them) its query answers for the crate from this phase on. */
  advisories: z.array(z.record(z.string(), z.unknown())).optional(),
  /** How OSV's query for the crate fails in this phase only (`status` names the 5xx). */
  osv_fail: z.enum(FAILS.osv).optional(),
});

const NugetPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.nuget).optional(),
  /** version → its publication instant. */
  versions: z.record(z.string(), instant).optional(),
  /** Unlisted versions: still served, published "1900". */
  unlisted: z.array(z.string()).optional(),
  /** Deprecation reasons on the latest version (Legacy, CriticalBugs, Other). */
  deprecation: z.array(z.string()).optional(),
  /** The deprecation's alternatePackage id (the package the owner names instead). */
  alternate_package: z.string().optional(),
  /** Every version deprecated (with `deprecation`'s reasons, else Other). */
  deprecated_all: z.boolean().optional(),
  /** Leaves not inlined: the index names a page to fetch, as for packages of 128 versions or more. */
  paged: z.boolean().optional(),
});

const ComposerPhase = z.strictObject({
  ...base,
  ...adoption,
  fail: z.enum(FAILS.composer).optional(),
  /** Tagged version → its publication instant. */
  versions: z.record(z.string(), instant).optional(),
  /** Packagist's flag: true, or the package the author suggests instead. */
  abandoned: z.union([z.boolean(), z.string()]).optional(),
});

/** A distribution release is answered from the `endoflife` products; its phases only say it exists. */
const DistroPhase = z.strictObject({ ...base });

const EolRelease = z.strictObject({
  name: z.string().min(1),
  codename: z.string().optional(),
  releaseDate: date.optional(),
  /** End-of-life date; null when unknown. `isEol` is computed from it on the simulator's date unless `eol` says. */
  eolFrom: date.nullable().optional(),
  eol: z.boolean().optional(),
  eoesFrom: date.optional(),
  isLts: z.boolean().optional(),
  latest: z.string().optional(),
  /** The date of `latest` (default: releaseDate). */
  latestDate: date.optional(),
});
const EolPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.endoflife).optional(),
  releases: z.array(EolRelease).optional(),
});
export const EolProduct = z.strictObject({
  label: z.string().optional(),
  aliases: z.array(z.string()).optional(),
  phases: z.array(EolPhase).min(1),
});

export type GithubPhase = z.infer<typeof GithubPhase>;
export type NpmPhase = z.infer<typeof NpmPhase>;
export type PypiPhase = z.infer<typeof PypiPhase>;
export type DockerPhase = z.infer<typeof DockerPhase>;
export type MavenPhase = z.infer<typeof MavenPhase>;
export type GolangPhase = z.infer<typeof GolangPhase>;
export type EolPhase = z.infer<typeof EolPhase>;
export type EolRelease = z.infer<typeof EolRelease>;
export type EolProduct = z.infer<typeof EolProduct>;
export type DistroPhase = z.infer<typeof DistroPhase>;
export type GemPhase = z.infer<typeof GemPhase>;
export type ComposerPhase = z.infer<typeof ComposerPhase>;
export type CargoPhase = z.infer<typeof CargoPhase>;
export type NugetPhase = z.infer<typeof NugetPhase>;
export type Phase =
  | GithubPhase
  | NpmPhase
  | PypiPhase
  | DockerPhase
  | MavenPhase
  | GolangPhase
  | GemPhase
  | CargoPhase
  | ComposerPhase
  | DistroPhase;

export const OsvExportPhase = z.strictObject({
  ...base,
  fail: z.enum(FAILS.osvExport).optional(),
  /** Only the records (`<ID>.json`) fail so; modified_id.csv answers (`not_found`: listed before written). */
  records_fail: z.enum(FAILS.osvExport).optional(),
});
export type OsvExportPhase = z.infer<typeof OsvExportPhase>;

export const LISTING_FAILS = ['server_error', 'rate_limit_429', 'malformed', 'timeout', 'reset'] as const;
export interface ListingFault {
  /** The source's registry name (`npmjs.org`, `pypi.org`…). */
  registry: string;
  /** The page (from 1) that fails. */
  page: number;
  fail: (typeof LISTING_FAILS)[number];
  /** How many times it fails before it answers (absent: every time). */
  times?: number;
}

export const PHASES: Record<ComponentKind, z.ZodType<Phase>> = {
  github: GithubPhase,
  npm: NpmPhase,
  pypi: PypiPhase,
  docker: DockerPhase,
  maven: MavenPhase,
  golang: GolangPhase,
  gem: GemPhase,
  cargo: CargoPhase,
  nuget: NugetPhase,
  composer: ComposerPhase,
  distro: DistroPhase,
};
