/** What the reader keeps from a full npm packument (research §2.1): a few facts, not megabytes. */
import type { FactsSpec } from '../http.js';
import { instant, latestInstant } from '../reading.js';

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
};

function record(v: unknown): Record<string, unknown> | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A non-empty deprecation message; npm clears a deprecation by setting it to "". */
function deprecation(version: unknown): string | null {
  const d = record(version)?.['deprecated'];
  return typeof d === 'string' && d.trim() !== '' ? d.slice(0, 500) : null;
}

function repositoryUrl(v: unknown): string | null {
  if (typeof v === 'string') return v.slice(0, 300);
  const url = record(v)?.['url'];
  return typeof url === 'string' ? url.slice(0, 300) : null;
}

export const PACKUMENT_FACTS: FactsSpec<PackumentFacts> = {
  version: 'npm-packument/1',
  extract(body) {
    const doc = record(body);
    if (!doc) return 'the packument is not a JSON object';
    const versions = record(doc['versions']) ?? {};
    const time = record(doc['time']) ?? {};
    const distTags = record(doc['dist-tags']) ?? {};
    const names = Object.keys(versions);
    const latest = typeof distTags['latest'] === 'string' ? distTags['latest'] : null;
    const last = latestInstant(names.map((v) => instant(time[v])));
    const unpublished = record(time['unpublished']);
    const unpublishedVersions = Array.isArray(unpublished?.['versions']) ? unpublished['versions'].filter((v): v is string => typeof v === 'string') : [];
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
      security_holding: doc['description'] === 'security holding package' || (latest !== null && /-security$/.test(latest) && names.length <= 1),
      repository_url: repositoryUrl(doc['repository']),
    };
  },
};
