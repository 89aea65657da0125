/**
 * The dependents counts of many packages in one request: ecosyste.ms's listing of a registry's
 * packages, `GET {base}/api/v1/registries/{registry}/packages?sort=dependent_packages_count&order=desc&per_page=N&page=P`
 * (`openapi/api/v1/openapi.yaml`, getRegistryPackages; pages of at most 1,000, `pagy` countless
 * paging, an empty page past the end). Each entry is the same package object as the per-package
 * answer, so a count read here is the count the per-package read would give, read on this page.
 */
import type { EvidenceValue } from '../../domain/observation.js';
import type { HttpClient } from '../http/client.js';
import type { ListingAnswer } from '../source.js';
import type { FactsSpec } from '../http/facts-spec.js';
import { redirectEvidence } from '../reading.js';
import { classifyPackageResponse } from './classify-response.js';

/** The largest page the listing serves (pagy's `limit_max` in ecosyste.ms's packages service). */
export const LISTING_MAX_PER_PAGE = 1_000;

export const LISTING_METHOD =
  'ecosyste.ms registry packages listing sorted by dependent_packages_count: the count of each package listed (packages in the registry that depend on it)';

type ListingFacts = { entries: [string, number | null, number | null, string | null][] } & Record<
  string,
  EvidenceValue
>;

function count(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

export const LISTING_FACTS: FactsSpec<ListingFacts> = {
  version: 'ecosystems-listing/1',
  from: import.meta.url,
  extract(body) {
    if (!Array.isArray(body)) return 'not an ecosyste.ms package listing (a JSON array of packages)';
    const entries: ListingFacts['entries'] = [];
    for (const item of body as unknown[]) {
      if (typeof item !== 'object' || item === null || Array.isArray(item))
        return 'a listing entry is not a package object';
      const p = item as Record<string, unknown>;
      if (typeof p['name'] !== 'string' || p['name'] === '') return 'a listing entry has no name';
      entries.push([
        p['name'].slice(0, 214),
        count(p['dependent_packages_count']),
        count(p['dependent_repos_count']),
        typeof p['status'] === 'string' ? p['status'].slice(0, 40) : null,
      ]);
    }
    return { entries };
  },
};

export function listingUrl(base: string, registry: string, page: number, perPage: number): string {
  return `${base}/api/v1/registries/${encodeURIComponent(registry)}/packages?sort=dependent_packages_count&order=desc&per_page=${perPage}&page=${page}`;
}

/** One page of the listing, or why it could not be read: never a count for a package it did not list. */
export async function readListingPage(
  client: HttpClient,
  base: string,
  registry: string,
  page: number,
  perPage: number,
): Promise<ListingAnswer> {
  const size = Math.min(Math.max(1, Math.floor(perPage)), LISTING_MAX_PER_PAGE);
  const url = listingUrl(base, registry, page, size);
  // Uncached: a page's facts are a thousand counts, and its ETag moves with any of them.
  const answer = await client.get(url, { accept: 'application/json', facts: LISTING_FACTS, uncached: true });
  if (answer.kind === 'unreachable') {
    const seconds = answer.evidence['rate_limited_for_seconds'];
    const until = answer.evidence['rate_limited_until'];
    const retryAfterMs =
      typeof seconds === 'number'
        ? seconds * 1000
        : typeof until === 'string'
          ? Math.max(0, Date.parse(until) - Date.now())
          : null;
    return {
      kind: 'failed',
      url: answer.url,
      retryAfterMs,
      evidence: {
        ...answer.evidence,
        unreachable: answer.reason,
        registry,
        page,
        ...redirectEvidence(answer.redirects),
      },
    };
  }
  if (answer.kind === 'status') {
    return {
      kind: 'failed',
      url: answer.url,
      retryAfterMs: null,
      evidence: { ...classifyPackageResponse(answer), registry, page, ...redirectEvidence(answer.redirects) },
    };
  }
  return {
    kind: 'page',
    url: answer.url,
    status: answer.status,
    entries: answer.facts.entries.map(([name, dependents, repos, status]) => ({
      name,
      dependents,
      dependent_repos_count: repos,
      status,
    })),
    evidence: { http_status: answer.status, registry, page, per_page: size, ...redirectEvidence(answer.redirects) },
  };
}
