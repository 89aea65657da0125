import { TendedError } from '../domain/errors.js';
import type { ComponentRef } from '../domain/component.js';

/**
 * What every parser returns: the components an input names, each with where it was found, and
 * every entry that names no component Tended can observe, with the reason. Nothing is dropped
 * silently: references + unresolved account for the whole input.
 */
export interface ComponentReference {
  /** Normalised with normaliseComponent / componentFromPurl. */
  ref: ComponentRef;
  /** The text as written in the input (`actions/checkout@v4`, `express: ^4.18.0`, a purl). */
  input: string;
  /** Where: `line 12`, `jobs.build.steps[3].uses`, `bom-ref pkg:npm/x@1.0.0`, `SPDXRef-Package-x`. */
  location: string;
  /**
   * The 1-based line of the file the entry starts on, when the parser knows it (manifests; not the
   * XML and TOML ones, nor SBOMs): what SARIF's `region.startLine` and a review comment point at.
   */
  line?: number;
  /** Lockfiles and SBOMs with a graph: where the entry sits in the resolved tree (DESIGN §8d). */
  tree?: TreePlace;
}

/**
 * Where a resolved package sits in the tree a lockfile or an SBOM's graph describes. Each field is
 * present only where the file says it: a lockfile with no graph (go.sum) gives a version and no
 * scope, a package.json gives `direct` and no version.
 */
export interface TreePlace {
  /** The version the file resolved (the version is context: states are per package). */
  resolvedVersion?: string;
  /** `direct`: the project names it; `transitive`: only another package does. */
  scope?: 'direct' | 'transitive';
  /** The file says it is needed only for development (devDependencies, a dev group, `develop`). */
  dev?: boolean;
  /** The file says it is optional (optionalDependencies, an extra, `optional = true`). */
  optional?: boolean;
  /** One shortest path: names from a direct dependency down to this one's parent; [] when direct. */
  via?: string[];
  /** Names left out of a long path between its first and last MAX_VIA_NAMES / 2 (`via` holds both ends). */
  viaElided?: number;
  /** Set when the path runs through an entry that names no component Tended can observe. */
  viaUnresolved?: string;
}

export interface UnresolvedEntry {
  input: string;
  location: string;
  /** A sentence a person can act on: why this entry names no observable component. */
  reason: string;
}

/**
 * Every manifest format the manifest route reads, with the files it is, in the order sentences
 * list them: manifests first, then lockfiles. The one list the route's refusals, the MCP tool's
 * description and its `format` enum are written from (a test holds docs/api.md to it too).
 */
export const MANIFEST_FORMAT_FILES = {
  workflow: { files: 'GitHub Actions workflow', lockfile: false },
  dockerfile: { files: 'Dockerfile', lockfile: false },
  'package-json': { files: 'package.json', lockfile: false },
  requirements: { files: 'requirements.txt', lockfile: false },
  'go-mod': { files: 'go.mod', lockfile: false },
  pom: { files: 'pom.xml', lockfile: false },
  'composer-json': { files: 'composer.json', lockfile: false },
  'nuget-project': {
    files: 'NuGet project file (*.csproj, packages.config, Directory.Packages.props)',
    lockfile: false,
  },
  'cargo-toml': { files: 'Cargo.toml', lockfile: false },
  gemfile: { files: 'Gemfile', lockfile: false },
  'package-lock': { files: 'package-lock.json, npm-shrinkwrap.json', lockfile: true },
  'yarn-lock': { files: 'yarn.lock', lockfile: true },
  'pnpm-lock': { files: 'pnpm-lock.yaml', lockfile: true },
  'bun-lock': { files: 'bun.lock', lockfile: true },
  'cargo-lock': { files: 'Cargo.lock', lockfile: true },
  'gemfile-lock': { files: 'Gemfile.lock', lockfile: true },
  'poetry-lock': { files: 'poetry.lock', lockfile: true },
  'uv-lock': { files: 'uv.lock', lockfile: true },
  'pipfile-lock': { files: 'Pipfile.lock', lockfile: true },
  'go-sum': { files: 'go.sum', lockfile: true },
  'composer-lock': { files: 'composer.lock', lockfile: true },
  'nuget-lock': { files: 'packages.lock.json', lockfile: true },
  'gradle-lockfile': { files: 'gradle.lockfile', lockfile: true },
} as const satisfies Record<string, { files: string; lockfile: boolean }>;

export type ManifestFormat = keyof typeof MANIFEST_FORMAT_FILES;
export const MANIFEST_FORMATS = Object.keys(MANIFEST_FORMAT_FILES) as [ManifestFormat, ...ManifestFormat[]];

/** The files of the manifests (`lockfile: false`) or of the lockfiles, listed "a, b, c". */
export function manifestFileNames(lockfile: boolean): string {
  return MANIFEST_FORMATS.filter((f) => MANIFEST_FORMAT_FILES[f].lockfile === lockfile)
    .map((f) => MANIFEST_FORMAT_FILES[f].files)
    .join(', ');
}
export const SBOM_FORMATS = ['cyclonedx', 'spdx'] as const;
export type SbomFormat = (typeof SBOM_FORMATS)[number];

/**
 * What an SBOM describes, as it names itself: CycloneDX `metadata.component`, the SPDX package the
 * document DESCRIBES (2.x) or its root element (3.0). `bom_ref` is the bom-ref, or the SPDXID.
 */
export interface SbomSubject {
  name: string;
  version?: string;
  purl?: string;
  bom_ref?: string;
}

/** Unresolved entries listed in full by a parser; the rest are only counted (ParseResult.unlisted). */
export const MAX_UNRESOLVED_KEPT = 1_000;

export interface UnlistedEntries {
  count: number;
  byReason: Map<string, number>;
}

/** Records an unresolved entry: kept while fewer than MAX_UNRESOLVED_KEPT are, else counted by its reason. */
export function addUnresolved(
  acc: { unresolved: UnresolvedEntry[]; unlisted?: UnlistedEntries },
  entry: UnresolvedEntry,
): void {
  if (acc.unresolved.length < MAX_UNRESOLVED_KEPT) {
    acc.unresolved.push(entry);
    return;
  }
  const unlisted = (acc.unlisted ??= { count: 0, byReason: new Map() });
  unlisted.count += 1;
  unlisted.byReason.set(entry.reason, (unlisted.byReason.get(entry.reason) ?? 0) + 1);
}

export interface ParseResult {
  /** `components` for a request that lists components by name and kind rather than pasting a file. */
  format: ManifestFormat | SbomFormat | 'components';
  /** Finer detail when known: `CycloneDX 1.4 XML`, `SPDX 2.3 tag-value`, `SPDX 3.0 JSON-LD`. */
  variant?: string;
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
  /**
   * Unresolved entries past the first MAX_UNRESOLVED_KEPT, counted by reason but not kept: a
   * hostile SBOM of two million non-components would otherwise hold two million objects.
   */
  unlisted?: UnlistedEntries;
  /** SBOMs only: what the SBOM describes, or null when it names no single subject. Absent for manifests. */
  subject?: SbomSubject | null;
}

/** The input is not a readable file of the format it was parsed as; the message says what is wrong and where. */
export class InputError extends TendedError {
  constructor(message: string, code: 'input' | 'too_complex' = 'input') {
    super(code, message);
    this.name = 'InputError';
  }
}

/**
 * The input is readable but would cost more than one request may (DESIGN §8c): too deep, too many
 * elements, a name or an expansion too long, or a parse past its deadline or memory budget.
 * Answered 422; the message starts "This file is too complex to check:" and says which bound it passed.
 */
export class TooComplexError extends InputError {
  constructor(why: string) {
    super(`This file is too complex to check: ${why}`, 'too_complex');
    this.name = 'TooComplexError';
  }
}
