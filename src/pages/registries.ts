/**
 * What a component's page says about each kind it covers: the registry or host's name, where its
 * own page for the component is, which of its metadata the state rests on, and where in an
 * observation's evidence the latest activity, its version and any retirement notice are.
 *
 * Which components get a page (docs/methodology.md, "Adoption and pages"): a package of a registry
 * whose dependents Tended counts (domain/census.ts) once its latest census reaches the threshold
 * (spec §2.2 rule 2); a component of a kind with no dependents count (GitHub repository, container
 * image, distribution release, NuGet package) once the record holds an observation of it, since
 * there is no adoption signal to qualify it by and its readings are public in the log anyway.
 */
import { CENSUS_KINDS } from '../domain/census.js';
import { COMPONENT_KINDS, normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import { DOCKER_HUB, parseDockerId } from '../domain/docker-reference.js';
import type { EvidenceValue } from '../domain/observation.js';

type Evidence = Readonly<Record<string, EvidenceValue>>;

export interface PageRegistry {
  kind: ComponentKind;
  /** "the npm registry": how sentences name it. */
  name: string;
  /** The page's Registry fact. */
  description: string;
  /** What a component is called there ("npm package", "PyPI project", "GitHub repository"). */
  packageNoun: string;
  /** Which metadata the state rests on, and why it is authoritative (the spec's Method fact). */
  method: string;
  /** The fact naming the latest activity: spec §2.2's "Latest published version" for a package. */
  activityLabel: string;
  /** What the latest activity is, as a participle: "When was X {lastDone}?" ("published", "committed to"). */
  activityDone: string;
  /** The fact naming the retirement notice: spec §2.2's "Deprecation notice" for a package. */
  noticeLabel: string;
  /** The registry's own page for the component, when it has one. */
  pageUrl(id: string): string | null;
  /** The instant of the latest activity the observation read (publication, commit, push), or null. */
  published(evidence: Evidence): string | null;
  /** The version (or commit, or point release) that activity is, as the evidence names it, or null. */
  version(evidence: Evidence): string | null;
  /** The registry's retirement notice the observation read (deprecation, relocation, abandonment), or null. */
  notice(evidence: Evidence): string | null;
  /** The source repository the registry's metadata names, as an http(s) address, or null. */
  repository(evidence: Evidence): string | null;
}

const text = (v: EvidenceValue | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);
const firstText = (e: Evidence, ...keys: string[]): string | null => {
  for (const k of keys) {
    const v = text(e[k]);
    if (v !== null) return v;
  }
  return null;
};
const AUTHORITATIVE = 'it is what the registry itself serves to every installer.';
const PACKAGE = {
  activityLabel: 'Latest published version',
  activityDone: 'last published',
  noticeLabel: 'Deprecation notice',
};
const none = () => null;

/** A component named in evidence, when it is a valid name of that kind; never an error on a page. */
function named(kind: ComponentKind, id: string | null): ComponentRef | null {
  if (id === null) return null;
  try {
    return normaliseComponent(kind, id);
  } catch {
    return null;
  }
}

/**
 * A repository address as package metadata spells it (`git+https://…/x.git`, `git@github.com:o/r`,
 * `github:o/r`, `o/r`), as a browsable https address; null for anything else, so no metadata can
 * put a `javascript:` or other scheme into a link.
 */
export function repositoryAddress(raw: string | null): string | null {
  if (raw === null) return null;
  let url = raw.trim();
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(url);
  if (shorthand) url = `https://github.com/${shorthand[1]}`;
  url = url
    .replace(/^git\+/, '')
    .replace(/^git@github\.com:/, 'https://github.com/')
    .replace(/^(?:git|ssh):\/\/(?:git@)?/, 'https://')
    .replace(/\.git$/, '');
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href.replace(/\/$/, '') : null;
  } catch {
    return null;
  }
}

/** The GitHub repository an address names (`https://github.com/o/r[/…]`), or null. */
export function githubRepositoryAt(address: string | null): ComponentRef | null {
  const m = address === null ? null : /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\/([^/#?]+)/.exec(address);
  return m ? named('github', `${m[1]}/${m[2]!.replace(/\.git$/, '')}`) : null;
}

const REGISTRIES: readonly PageRegistry[] = [
  {
    kind: 'npm',
    name: 'the npm registry',
    description: 'npm (the JavaScript package registry)',
    packageNoun: 'npm package',
    method:
      'Read from the npm registry’s own metadata for the package: the latest-published timestamp over the versions ' +
      'still present and the deprecation flag of the latest version. Both are authoritative: they are what the ' +
      'registry itself serves to every installer.',
    ...PACKAGE,
    pageUrl: (id) => `https://www.npmjs.com/package/${id}`,
    published: (e) => text(e['last_published']),
    version: (e) => firstText(e, 'last_published_version', 'latest_version'),
    notice: (e) => text(e['deprecated']),
    repository: (e) => repositoryAddress(text(e['repository_url'])),
  },
  {
    kind: 'pypi',
    name: 'PyPI',
    description: 'PyPI (the Python Package Index)',
    packageNoun: 'PyPI project',
    method:
      'Read from PyPI’s own metadata for the project: the latest upload over the files not yanked, the project ' +
      `status of PEP 792 and the "Development Status :: 7 - Inactive" classifier. All are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://pypi.org/project/${id}/`,
    published: (e) => text(e['last_upload']),
    version: (e) => firstText(e, 'last_upload_version', 'version'),
    notice: (e) => {
      const status = text(e['project_status']);
      if (status !== null && status !== 'active') {
        const reason = text(e['project_status_reason']);
        return `project status: ${status}${reason ? ` (${reason})` : ''}`;
      }
      if (e['all_yanked'] === true) return 'every file yanked';
      if (e['classifier_inactive'] === true) return 'classified Development Status :: 7 - Inactive';
      return null;
    },
    repository: none,
  },
  {
    kind: 'maven',
    name: 'Maven Central',
    description: 'Maven Central (the Java package repository)',
    packageNoun: 'Maven artifact',
    method:
      'Read from Maven Central’s own files for the artifact: maven-metadata.xml for the latest release, and that ' +
      `release’s POM for its publication time and any <relocation>. Both are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://central.sonatype.com/artifact/${id.replace(':', '/')}`,
    published: (e) => firstText(e, 'published', 'metadata_last_updated'),
    version: (e) => firstText(e, 'latest_release', 'release_in_metadata'),
    notice: (e) => {
      const to = text(e['relocated_to']);
      return to !== null ? `relocated to ${to}` : e['relocated'] ? 'relocated' : null;
    },
    repository: none,
  },
  {
    kind: 'golang',
    name: 'the Go module proxy',
    description: 'the Go module proxy (proxy.golang.org)',
    packageNoun: 'Go module',
    method:
      'Read from the Go module proxy: the time of the version @latest names, and the // Deprecated: comment of its ' +
      `go.mod; for a module hosted on GitHub, the repository’s archived flag too. All are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://pkg.go.dev/${id}`,
    published: (e) => text(e['latest_time']),
    version: (e) => text(e['latest_version']),
    notice: (e) => {
      const deprecated = text(e['deprecated']);
      if (deprecated !== null) return `Deprecated: ${deprecated}`;
      if (e['archived_by'] === 'github') return 'its GitHub repository is archived';
      return null;
    },
    repository: (e) => repositoryAddress(text(e['origin_url'])),
  },
  {
    kind: 'cargo',
    name: 'crates.io',
    description: 'crates.io (the Rust package registry)',
    packageNoun: 'crate',
    method:
      'Read from crates.io’s sparse index for the crate: the latest version not yanked and its publication time. ' +
      `Both are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://crates.io/crates/${id}`,
    published: (e) => firstText(e, 'published', 'last_published'),
    version: (e) => text(e['latest_version']),
    notice: (e) => (e['all_yanked'] === true ? 'every version yanked' : null),
    repository: none,
  },
  {
    kind: 'gem',
    name: 'rubygems.org',
    description: 'rubygems.org (the Ruby package registry)',
    packageNoun: 'gem',
    method:
      'Read from rubygems.org’s versions of the gem: the latest publication over the public versions (yanked ones ' +
      `are not listed). rubygems.org has no deprecation flag. The list is authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://rubygems.org/gems/${id}`,
    published: (e) => text(e['last_published']),
    version: (e) => text(e['last_published_version']),
    notice: none,
    repository: none,
  },
  {
    kind: 'composer',
    name: 'Packagist',
    description: 'Packagist (the PHP package repository)',
    packageNoun: 'Composer package',
    method:
      'Read from Packagist’s metadata for the package: the latest publication over tagged releases and the ' +
      `abandoned flag. Both are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://packagist.org/packages/${id}`,
    published: (e) => text(e['last_published']),
    version: (e) => text(e['latest_version']),
    notice: (e) => {
      const abandoned = e['abandoned'];
      if (typeof abandoned === 'string' && abandoned !== '') return `abandoned; the author suggests ${abandoned}`;
      return abandoned === true ? 'abandoned' : null;
    },
    repository: none,
  },
  {
    kind: 'nuget',
    name: 'nuget.org',
    description: 'nuget.org (the .NET package registry)',
    packageNoun: 'NuGet package',
    method:
      'Read from nuget.org’s registration index for the package: the publication time of the latest listed version ' +
      `and its deprecation. Both are authoritative: ${AUTHORITATIVE}`,
    ...PACKAGE,
    pageUrl: (id) => `https://www.nuget.org/packages/${id}`,
    published: (e) => text(e['last_published']),
    version: (e) => text(e['latest_listed']),
    notice: (e) => {
      const d = e['deprecation'] ?? e['latest_deprecation'];
      if (Array.isArray(d) && d.length > 0) return `deprecated: ${d.filter((r) => typeof r === 'string').join(', ')}`;
      if (typeof d === 'string' && d !== '') return `deprecated: ${d}`;
      if (e['all_listed_deprecated'] === true) return 'every listed version deprecated';
      return null;
    },
    repository: none,
  },
  {
    kind: 'github',
    name: 'GitHub',
    description: 'GitHub (source repositories)',
    packageNoun: 'GitHub repository',
    method:
      'Read from GitHub’s REST API for the repository: the committer date of the default branch’s head commit and ' +
      'the archived flag. Both are authoritative: they are what GitHub itself serves for the repository.',
    activityLabel: 'Last commit or push',
    activityDone: 'last committed to',
    noticeLabel: 'Archived flag',
    pageUrl: (id) => `https://github.com/${id}`,
    // A pushed_at past the dormancy limit settles the state without reading commits: it bounds every commit.
    published: (e) => firstText(e, 'last_commit', 'pushed_at'),
    version: (e) => {
      const sha = text(e['last_commit_sha']);
      if (sha !== null) return `commit ${sha.slice(0, 12)}`;
      return text(e['last_commit']) === null && text(e['pushed_at']) !== null ? 'last push' : null;
    },
    notice: (e) => (e['archived'] === true ? 'archived: the repository is read-only' : null),
    repository: none,
  },
  {
    kind: 'docker',
    name: 'the image registry',
    description: 'a container image registry (Docker Hub), with the endoflife.date release cycles',
    packageNoun: 'container image',
    method:
      'Read from the image registry’s metadata for the tag (when it was last pushed), Tended’s list of deprecated ' +
      'official images, and the endoflife.date release cycle the tag runs on. The registry’s dates and the cycle’s ' +
      'end-of-life date are authoritative: they are what the registry and the project publish.',
    activityLabel: 'Tag last pushed',
    activityDone: 'last pushed',
    noticeLabel: 'Deprecation or end of life',
    pageUrl: (id) => {
      const r = parseDockerId(id);
      if (r.domain !== DOCKER_HUB) return null;
      const repo = r.path.startsWith('library/') ? `_/${r.path.slice('library/'.length)}` : `r/${r.path}`;
      return `https://hub.docker.com/${repo}/tags`;
    },
    published: (e) => text(e['tag_last_pushed']),
    version: (e) => {
      const digest = text(e['digest']);
      return digest === null ? null : `digest ${digest.slice(0, 19)}…`;
    },
    notice: (e) => {
      const deprecated = text(e['deprecated']);
      if (deprecated !== null) return `deprecated: ${deprecated}`;
      const checks = Array.isArray(e['eol_checks']) ? e['eol_checks'] : [];
      for (const c of checks) {
        if (c === null || typeof c !== 'object' || Array.isArray(c) || c['is_eol'] !== true) continue;
        return `end of life: ${text(c['product']) ?? 'its product'} ${text(c['cycle']) ?? ''} since ${text(c['eol_from']) ?? 'an undated day'}`;
      }
      return null;
    },
    repository: none,
  },
  {
    kind: 'distro',
    name: 'the endoflife.date listing',
    description: 'endoflife.date (release cycles of distributions)',
    packageNoun: 'distribution release',
    method:
      'Read from the endoflife.date listing of the distribution: whether the release is still supported, its ' +
      'end-of-life date and its latest point release. The listing repeats what the distribution publishes.',
    activityLabel: 'Latest point release',
    activityDone: 'given its latest point release',
    noticeLabel: 'End of life',
    pageUrl: (id) => `https://endoflife.date/${id.slice(0, id.indexOf('/'))}`,
    published: (e) => text(e['latest_date']),
    version: (e) => text(e['latest']),
    notice: (e) => (e['is_eol'] === true ? `end of life since ${text(e['eol_from']) ?? 'an undated day'}` : null),
    repository: none,
  },
];

const BY_KIND = new Map(REGISTRIES.map((r) => [r.kind, r]));

/** Every kind has pages; a kind with a census shows its packages' adoption, and needs it (see above). */
export const PAGE_KINDS: readonly ComponentKind[] = COMPONENT_KINDS;

/** What a page says about a kind. */
export function pageRegistry(kind: ComponentKind): PageRegistry {
  return BY_KIND.get(kind)!;
}

/** True for a kind whose packages need a census at the threshold to have a page. */
export function pageNeedsCensus(kind: ComponentKind): boolean {
  return CENSUS_KINDS.has(kind);
}

/**
 * Where a component's page lives: `/{kind}/{id}`, in the purl's own spelling (`/npm/@scope/name`,
 * `/maven/group/artifact`, `/golang/github.com/owner/repo`, `/composer/vendor/name`,
 * `/github/owner/repo`, `/distro/debian/12`); an image on Docker Hub as `docker` names it there
 * (`/docker/library/node:22`), so the badge's address and the page's differ only in prefix.
 */
export function packagePath(ref: { kind: ComponentKind; id: string }): string {
  if (ref.kind === 'maven') return `/maven/${ref.id.replace(':', '/')}`;
  if (ref.kind === 'docker' && ref.id.startsWith(`${DOCKER_HUB}/`))
    return `/docker/${ref.id.slice(DOCKER_HUB.length + 1)}`;
  return `/${ref.kind}/${ref.id}`;
}

/** The component's badge (SVG), as a page shows it and a README embeds it. */
export function badgePath(ref: { kind: ComponentKind; id: string }): string {
  return `/badge/${ref.kind}/${ref.id}.svg`;
}
