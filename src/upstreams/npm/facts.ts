/** What the reader keeps from a full npm packument (research §2.1): a few facts, not megabytes. */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant, latestInstant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type PackumentFacts = {
  name: string | null;
  latest: string | null;
  /** The deprecation message on dist-tags.latest, or null. */
  latest_deprecated: string | null;
  /** Max time[v] over the versions still present; an unpublished version keeps its time entry. */
  last_published: string | null;
  last_published_version: string | null;
  versions: number;
  all_deprecated: boolean;
  /** time.unpublished, when the package was unpublished (the registry answers 200). */
  unpublished_at: string | null;
  unpublished_versions: string[];
  security_holding: boolean;
  repository_url: string | null;
  /** The latest version's declared interface, as read (DESIGN §6 schema_history). */
  latest_interface: LatestInterface | null;
  /** The names of the latest version's direct dependencies, sorted (DESIGN §6 dependency_risk). */
  latest_dependencies: string[] | null;
};

export type LatestInterface = {
  license: string | null;
  engines: Record<string, string>;
  has_exports: boolean;
  has_types: boolean;
};

// Keeps a leaf well under its 64 kB limit even for packages with very many dependencies.
const MAX_DEPENDENCIES = 300;
const MAX_ENGINES = 10;

/** A non-empty deprecation message; npm clears a deprecation by setting it to "". */
function deprecation(version: unknown): string | null {
  const d = asJsonObject(version)?.['deprecated'];
  return typeof d === 'string' && d.trim() !== '' ? d.slice(0, 500) : null;
}

function repositoryUrl(v: unknown): string | null {
  if (typeof v === 'string') return v.slice(0, 300);
  const url = asJsonObject(v)?.['url'];
  return typeof url === 'string' ? url.slice(0, 300) : null;
}

/** `license` as a string, or the legacy `{type}` object (and `licenses: [{type}]` arrays) npm still serves. */
function licenseOf(manifest: Record<string, unknown>): string | null {
  const l = manifest['license'];
  if (typeof l === 'string') return l.slice(0, 200);
  const type = asJsonObject(l)?.['type'];
  if (typeof type === 'string') return type.slice(0, 200);
  const list = manifest['licenses'];
  if (Array.isArray(list)) {
    const types = list.map((x) => asJsonObject(x)?.['type']).filter((t): t is string => typeof t === 'string');
    if (types.length > 0) return types.join(' OR ').slice(0, 200);
  }
  return null;
}

function interfaceOf(manifest: Record<string, unknown>): LatestInterface {
  const engines = Object.entries(asJsonObject(manifest['engines']) ?? {})
    .filter((e): e is [string, string] => typeof e[1] === 'string')
    .slice(0, MAX_ENGINES)
    .map(([k, v]): [string, string] => [k.slice(0, 50), v.slice(0, 100)]);
  return {
    license: licenseOf(manifest),
    engines: Object.fromEntries(engines),
    has_exports: manifest['exports'] !== undefined && manifest['exports'] !== null,
    has_types: typeof manifest['types'] === 'string' || typeof manifest['typings'] === 'string',
  };
}

export const PACKUMENT_FACTS: FactsSpec<PackumentFacts> = {
  // /2: adds the latest version's interface and direct dependencies; cached /1 facts are re-read.
  version: 'npm-packument/2',
  from: import.meta.url,
  extract(body) {
    const doc = asJsonObject(body);
    if (!doc) return 'the packument is not a JSON object';
    const versions = asJsonObject(doc['versions']) ?? {};
    const time = asJsonObject(doc['time']) ?? {};
    const distTags = asJsonObject(doc['dist-tags']) ?? {};
    const names = Object.keys(versions);
    const latest = typeof distTags['latest'] === 'string' ? distTags['latest'] : null;
    const latestManifest = latest ? asJsonObject(versions[latest]) : null;
    const last = latestInstant(names.map((v) => instant(time[v])));
    const unpublished = asJsonObject(time['unpublished']);
    const unpublishedVersions = Array.isArray(unpublished?.['versions'])
      ? unpublished['versions'].filter((v): v is string => typeof v === 'string')
      : [];
    // Prereleases are left out: "every release deprecated" is about what users would install.
    const releases = names.filter((v) => !v.includes('-'));
    return {
      name: typeof doc['name'] === 'string' ? doc['name'] : null,
      latest,
      latest_deprecated: latest ? deprecation(versions[latest]) : null,
      last_published: last,
      last_published_version: last ? (names.find((v) => instant(time[v]) === last) ?? null) : null,
      versions: names.length,
      all_deprecated: releases.length > 0 && releases.every((v) => deprecation(versions[v]) !== null),
      unpublished_at: unpublished ? (instant(unpublished['time']) ?? 'unknown') : null,
      unpublished_versions: unpublishedVersions.slice(0, 50),
      // npm's replacement for removed malware (ecosyste.ms treats it as removed too).
      security_holding:
        doc['description'] === 'security holding package' ||
        (latest !== null && /-security$/.test(latest) && names.length <= 1),
      repository_url: repositoryUrl(doc['repository']),
      latest_interface: latestManifest ? interfaceOf(latestManifest) : null,
      latest_dependencies: latestManifest
        ? Object.keys(asJsonObject(latestManifest['dependencies']) ?? {})
            .map((n) => n.slice(0, 214))
            .sort()
            .slice(0, MAX_DEPENDENCIES)
        : null,
    };
  },
};
