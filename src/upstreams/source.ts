/**
 * The port between the observer and the upstreams: one reader per component kind, each turning
 * a component into what its upstream said (a Reading), plus the dependents source for the census.
 */
import type { ComponentKind, ComponentRef } from '../domain/component.js';
import type { EvidenceValue } from '../domain/observation.js';
import type { Signals } from '../domain/state.js';
import type { UpstreamBudgets } from './http/budget.js';
import type { ConditionalCache, UpstreamWatcher } from './http/ports.js';

export interface Reading {
  /** The observer calls classify(signals, observationDate). */
  signals: Signals;
  /** The URL whose answer the state rests on (after redirects). */
  source: string;
  /** The raw facts read; integers only, since evidence is committed to a leaf as canonical JSON. */
  evidence: Record<string, EvidenceValue>;
  /** One sentence naming the metadata used. */
  method: string;
  /** GitHub 301 rename or transfer: the new id (also in evidence). Never a death. */
  renamed_to?: ComponentRef;
}

export interface UpstreamSource {
  /** Never throws for upstream trouble: a failed read comes back as signals.unreachable with the reason. */
  read(ref: ComponentRef, today: string): Promise<Reading>;
}

export interface DependentsReading {
  /** null when the count could not be read: not zero, not known. */
  dependents: number | null;
  source: string;
  evidence: Record<string, EvidenceValue>;
  method: string;
}

export interface DependentsSource {
  read(ref: ComponentRef): Promise<DependentsReading>;
  /**
   * One page (from 1) of the source's listing of a registry's packages, most depended-upon first:
   * many packages' counts in one request. null for a kind the source counts nothing for.
   */
  list(kind: ComponentKind, page: number, perPage: number): Promise<ListingAnswer | null>;
}

export interface UpstreamUrls {
  github: string;
  npm: string;
  pypi: string;
  endoflife: string;
  dockerhub: string;
  dependents: string;
  /** The dependents source's identifier for the npm registry (ecosyste.ms: `npmjs.org`). */
  dependentsRegistry: string;
  /** A Maven repository laid out as Central is (`…/maven2`). */
  maven: string;
  /** A Go module proxy (GOPROXY protocol). */
  goproxy: string;
  rubygems: string;
  /** Packagist's static metadata (repo.packagist.org). */
  packagist: string;
  /** crates.io's API (dates of versions the index gives no time for). */
  crates: string;
  /** crates.io's sparse index. */
  cratesIndex: string;
  /** nuget.org's V3 API (registration indexes). */
  nuget: string;
  /** OSV's API (api.osv.dev): RustSec's advisories for a crate, "unmaintained" among them. */
  osv: string;
}

/**
 * Every upstream at one base URL: readers that must never reach one (benchmarks, limit suites)
 * point at a closed port. Written out, so a new upstream cannot be left out.
 */
export function everyUpstreamAt(url: string): UpstreamUrls {
  return {
    github: url,
    npm: url,
    pypi: url,
    endoflife: url,
    dockerhub: url,
    dependents: url,
    dependentsRegistry: 'npmjs.org',
    maven: url,
    goproxy: url,
    rubygems: url,
    packagist: url,
    crates: url,
    cratesIndex: url,
    nuget: url,
    osv: url,
  };
}

export interface UpstreamOptions {
  /** Base URLs without a trailing slash; a base may carry a path (http://host:1/github) which every request keeps. */
  urls: UpstreamUrls;
  githubToken: string | null;
  userAgent: string;
  /** Per request. */
  timeoutMs: number;
  /** Requests in flight per upstream. */
  concurrency: number;
  cache: ConditionalCache;
  /** The clock rate-limit holds are measured by (default Date.now): the observer's own, in tests. */
  now?: () => number;
  /** Told of every answer and hold, by upstream (the operator's metrics); absent, nothing is told. */
  watcher?: UpstreamWatcher;
  /** Each host's request budget (budget.ts); absent, requests are paced by nothing but the upstreams' own answers. */
  budgets?: UpstreamBudgets;
}

export type Sources = Record<ComponentKind, UpstreamSource> & {
  dependents: DependentsSource;
  /** A GitHub owner's public repositories, for discovery through the org read. */
  githubOwners: OwnerRepositories;
};

/** An owner's public repositories, one page (github/owner-repositories.ts reads them). */
export type OwnerListing =
  | { kind: 'repositories'; names: string[] }
  | { kind: 'not_found' }
  /** The listing failed (a rate limit, a 5xx…): try again after `retryAt`, or on a later pass. */
  | { kind: 'failed'; retryAt: string | null };

export interface OwnerRepositories {
  list(owner: string): Promise<OwnerListing>;
}

/** A package of a dependents listing (dependents/listing.ts reads them). */
export interface ListedPackage {
  /** The name as the source lists it (its spelling of the registry's names). */
  name: string;
  /** null when the entry carries no whole count: such an entry says nothing. */
  dependents: number | null;
  dependent_repos_count: number | null;
  /** ecosyste.ms's own status: null = active; also removed, unpublished, deprecated. */
  status: string | null;
}

/** One page of a dependents listing, or why it could not be read (dependents/listing.ts). */
export type ListingAnswer =
  | {
      kind: 'page';
      url: string;
      status: 200 | 304;
      entries: ListedPackage[];
      evidence: Record<string, EvidenceValue>;
    }
  | {
      kind: 'failed';
      url: string;
      /** How long the source asked us to stay away, when it said (a rate limit, a 503 with Retry-After). */
      retryAfterMs: number | null;
      evidence: Record<string, EvidenceValue>;
    };
