/**
 * What a package page says about each registry it covers: the registry's name, where its own page
 * for the package is, which of its metadata the state rests on, and where in an observation's
 * evidence the latest publication and any retirement notice are. A kind is here only when its
 * packages can qualify for a page: its registry has a dependents count (domain/census.ts).
 */
import { CENSUS_KINDS } from '../domain/census.js';
import type { ComponentKind } from '../domain/component.js';
import type { EvidenceValue } from '../domain/observation.js';

type Evidence = Readonly<Record<string, EvidenceValue>>;

export interface PageRegistry {
  kind: ComponentKind;
  /** "the npm registry": how sentences name it. */
  name: string;
  /** The page's Registry fact. */
  description: string;
  /** What a package is called there ("npm package", "PyPI project"). */
  packageNoun: string;
  /** Which metadata the state rests on, and why it is authoritative (the spec's Method fact). */
  method: string;
  /** The registry's own page for the package. */
  pageUrl(id: string): string;
  /** The instant of the latest publication the observation read, or null. */
  published(evidence: Evidence): string | null;
  /** The registry's retirement notice the observation read (deprecation, relocation, abandonment), or null. */
  notice(evidence: Evidence): string | null;
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
    pageUrl: (id) => `https://www.npmjs.com/package/${id}`,
    published: (e) => text(e['last_published']),
    notice: (e) => text(e['deprecated']),
  },
  {
    kind: 'pypi',
    name: 'PyPI',
    description: 'PyPI (the Python Package Index)',
    packageNoun: 'PyPI project',
    method:
      'Read from PyPI’s own metadata for the project: the latest upload over the files not yanked, the project ' +
      `status of PEP 792 and the "Development Status :: 7 - Inactive" classifier. All are authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://pypi.org/project/${id}/`,
    published: (e) => text(e['last_upload']),
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
  },
  {
    kind: 'maven',
    name: 'Maven Central',
    description: 'Maven Central (the Java package repository)',
    packageNoun: 'Maven artifact',
    method:
      'Read from Maven Central’s own files for the artifact: maven-metadata.xml for the latest release, and that ' +
      `release’s POM for its publication time and any <relocation>. Both are authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://central.sonatype.com/artifact/${id.replace(':', '/')}`,
    published: (e) => firstText(e, 'published', 'metadata_last_updated'),
    notice: (e) => {
      const to = text(e['relocated_to']);
      return to !== null ? `relocated to ${to}` : e['relocated'] ? 'relocated' : null;
    },
  },
  {
    kind: 'golang',
    name: 'the Go module proxy',
    description: 'the Go module proxy (proxy.golang.org)',
    packageNoun: 'Go module',
    method:
      'Read from the Go module proxy: the time of the version @latest names, and the // Deprecated: comment of its ' +
      `go.mod; for a module hosted on GitHub, the repository’s archived flag too. All are authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://pkg.go.dev/${id}`,
    published: (e) => text(e['latest_time']),
    notice: (e) => {
      const deprecated = text(e['deprecated']);
      if (deprecated !== null) return `Deprecated: ${deprecated}`;
      if (e['archived_by'] === 'github') return 'its GitHub repository is archived';
      return null;
    },
  },
  {
    kind: 'cargo',
    name: 'crates.io',
    description: 'crates.io (the Rust package registry)',
    packageNoun: 'crate',
    method:
      'Read from crates.io’s sparse index for the crate: the latest version not yanked and its publication time. ' +
      `Both are authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://crates.io/crates/${id}`,
    published: (e) => firstText(e, 'published', 'last_published'),
    notice: (e) => (e['all_yanked'] === true ? 'every version yanked' : null),
  },
  {
    kind: 'gem',
    name: 'rubygems.org',
    description: 'rubygems.org (the Ruby package registry)',
    packageNoun: 'gem',
    method:
      'Read from rubygems.org’s versions of the gem: the latest publication over the public versions (yanked ones ' +
      `are not listed). rubygems.org has no deprecation flag. The list is authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://rubygems.org/gems/${id}`,
    published: (e) => text(e['last_published']),
    notice: () => null,
  },
  {
    kind: 'composer',
    name: 'Packagist',
    description: 'Packagist (the PHP package repository)',
    packageNoun: 'Composer package',
    method:
      'Read from Packagist’s metadata for the package: the latest publication over tagged releases and the ' +
      `abandoned flag. Both are authoritative: ${AUTHORITATIVE}`,
    pageUrl: (id) => `https://packagist.org/packages/${id}`,
    published: (e) => text(e['last_published']),
    notice: (e) => {
      const abandoned = e['abandoned'];
      if (typeof abandoned === 'string' && abandoned !== '') return `abandoned; the author suggests ${abandoned}`;
      return abandoned === true ? 'abandoned' : null;
    },
  },
];

/** The kinds that have package pages, in the order pages list them. */
export const PAGE_KINDS: readonly ComponentKind[] = REGISTRIES.map((r) => r.kind).filter((k) => CENSUS_KINDS.has(k));

const BY_KIND = new Map(REGISTRIES.map((r) => [r.kind, r]));

/** The registry a page kind reads, or null for a kind without pages. */
export function pageRegistry(kind: ComponentKind): PageRegistry | null {
  return CENSUS_KINDS.has(kind) ? (BY_KIND.get(kind) ?? null) : null;
}

/**
 * Where a package's page lives: `/{kind}/{id}`, in the purl's own spelling (`/npm/@scope/name`,
 * `/maven/group/artifact`, `/golang/github.com/owner/repo`, `/composer/vendor/name`).
 */
export function packagePath(ref: { kind: ComponentKind; id: string }): string {
  return `/${ref.kind}/${ref.kind === 'maven' ? ref.id.replace(':', '/') : ref.id}`;
}
