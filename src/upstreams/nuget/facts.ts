/**
 * What the NuGet reader keeps from a registration index (research upstreams-more §5): per version,
 * whether it is listed, when it was published and its deprecation. nuget.org sets `published` to
 * 1900 on unlisted versions, so only listed versions date anything.
 */
import type { FactsSpec } from '../http/facts-spec.js';
import { instant, latestInstant } from '../reading.js';
import { asJsonObject } from '../../domain/json-object.js';

export type Leaf = {
  version: string;
  listed: boolean;
  published: string | null;
  deprecation: string[] | null;
  /** The deprecation's alternatePackage id: the package the owner names instead (DESIGN §8e). */
  alternate: string | null;
};

export type RegistrationFacts = {
  /** The leaves inlined in the index, in the index's (ascending) order. */
  leaves: Leaf[];
  /** The last page's URL when its leaves are not inlined (packages with 128 versions or more). */
  last_page: string | null;
};

export type PageFacts = { leaves: Leaf[] };

export type LeafSummary = {
  versions: number;
  listed: number;
  latest_listed: string | null;
  last_published: string | null;
  /** The deprecation reasons of the latest listed version, or null. */
  latest_deprecation: string[] | null;
  /** The alternatePackage of the latest listed version's deprecation, or null. */
  latest_alternate: string | null;
  all_listed_deprecated: boolean;
};

const MAX_LEAVES = 100_000;

function alternateOf(deprecation: Record<string, unknown> | null): string | null {
  const id = asJsonObject(deprecation?.['alternatePackage'])?.['id'];
  return typeof id === 'string' && id !== '' ? id.slice(0, 100) : null;
}

function leavesOf(items: unknown): Leaf[] {
  if (!Array.isArray(items)) return [];
  const out: Leaf[] = [];
  for (const item of items.slice(0, MAX_LEAVES)) {
    const entry = asJsonObject(asJsonObject(item)?.['catalogEntry']);
    if (!entry || typeof entry['version'] !== 'string') continue;
    const published = instant(entry['published']);
    const deprecation = asJsonObject(entry['deprecation']);
    const reasons = Array.isArray(deprecation?.['reasons'])
      ? deprecation['reasons'].filter((r): r is string => typeof r === 'string').map((r) => r.slice(0, 50))
      : null;
    out.push({
      version: entry['version'].slice(0, 100),
      // "Should be considered as listed if absent"; the 1900 date marks an unlisted version too.
      listed: entry['listed'] !== false && !(published ?? '').startsWith('1900-'),
      published,
      deprecation: deprecation ? (reasons ?? []) : null,
      alternate: alternateOf(deprecation),
    });
  }
  return out;
}

export const REGISTRATION_FACTS: FactsSpec<RegistrationFacts> = {
  version: 'nuget-registration/2',
  from: import.meta.url,
  extract(body) {
    const pages = asJsonObject(body)?.['items'];
    if (!Array.isArray(pages)) return 'not a NuGet registration index (no items)';
    const leaves: Leaf[] = [];
    let lastPage: string | null = null;
    for (const page of pages.map(asJsonObject)) {
      if (!page) continue;
      if (Array.isArray(page['items'])) leaves.push(...leavesOf(page['items']));
      else lastPage = typeof page['@id'] === 'string' ? page['@id'].slice(0, 500) : lastPage;
    }
    return { leaves, last_page: lastPage };
  },
};

export const PAGE_FACTS: FactsSpec<PageFacts> = {
  version: 'nuget-registration-page/2',
  from: import.meta.url,
  extract(body) {
    const items = asJsonObject(body)?.['items'];
    if (!Array.isArray(items)) return 'not a NuGet registration page (no items)';
    return { leaves: leavesOf(items) };
  },
};

export function summarise(leaves: readonly Leaf[]): LeafSummary {
  const listed = leaves.filter((l) => l.listed);
  const latest = listed.at(-1);
  return {
    versions: leaves.length,
    listed: listed.length,
    latest_listed: latest?.version ?? null,
    last_published: latestInstant(listed.map((l) => l.published)),
    latest_deprecation: latest?.deprecation ?? null,
    latest_alternate: latest?.alternate ?? null,
    all_listed_deprecated: listed.length > 0 && listed.every((l) => l.deprecation !== null),
  };
}
