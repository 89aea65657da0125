/**
 * What a package registry brings to Tended, in one value its folder exports (`<r>/registry.ts`):
 * its reader and the hosts it reads, and, for a registry followed through its change feed, its
 * feed, the host the feed spends, how often a pass starts and what a page may hold. registries.ts
 * gathers them into one map; sources.ts, followers.ts and the follow loop read only that map, so a
 * new registry is a new folder and a line there (docs/development.md lists its files).
 */
import type { ComponentKind } from '../domain/component.js';
import type { BudgetedUpstream } from './http/budget-limits.js';
import type { HttpClient } from './http/client.js';
import type { Follower, FollowedRegistry } from './following/follower.js';
import type { FollowerOptions } from './following/registry-follower.js';
import type { UpstreamSource, UpstreamUrls } from './source.js';

const MiB = 1024 * 1024;
/** The most a reader reads of one answer: most answers are small documents. */
export const SMALL_BODY = 8 * MiB;
/** Full packuments and PyPI, NuGet and Packagist documents of big projects run to tens of megabytes. */
export const LARGE_BODY = 96 * MiB;

/** An upstream's host as a reader is given it: its client (with the host's budget) and its base URL. */
export interface ReaderHost {
  client: HttpClient;
  base: string;
}

/** How a reader is built: a host by the name its URL and budget share, and the GitHub reader. */
export interface ReaderContext {
  /** `maxBodyBytes`: the largest answer read; `minIntervalMs`: a pause the host asks between requests. */
  host: (upstream: HostedUpstream, maxBodyBytes: number, minIntervalMs?: number) => ReaderHost;
  /** For readers that follow a package to its repository (a Go module on GitHub). */
  github: UpstreamSource;
}

/** The upstreams a reader may be given a host for: every URL but the dependents source's registry name. */
export type HostedUpstream = keyof Omit<UpstreamUrls, 'dependentsRegistry'>;

/** What building a follower is given beside its feed's client. */
export interface FeedContext {
  /** The follower's clock (hint dates, faults, periodic re-listing). */
  now: () => Date;
  /** npm's trailing window in seq and page size (tests). */
  npm?: { window?: number; pageSize?: number };
  /** A second feed beside the registry's own, over a client of its own (crates.io's RustSec export). */
  feedClient: (upstream: string, base: string, budget: BudgetedUpstream, maxBodyBytes: number) => HttpClient;
  /** OSV's export bucket (TENDED_OSV_EXPORT_URL). */
  osvExport: string;
}

export interface RegistryFollowing {
  registry: FollowedRegistry;
  /** The budgeted host its feed and listing are read from. */
  budget: BudgetedUpstream;
  /**
   * How long a follower waits between passes (a pass runs until its feed is caught up). The
   * schedule is by day, so a minute's delay costs nothing but near midnight.
   */
  passEveryMs: number;
  /** The largest feed page read, where its largest honest answer is known (a page past it is refused unparsed). */
  pageBodyCap?: number;
  /** Re-list the whole registry this often though nothing broke (null: never). */
  relistEveryDays: number | null;
  /**
   * Whether a re-listing after a break can be compared with what was held: only a listing that
   * names each package once with its feed's own marker, or none, says what changed in the gap.
   */
  comparableListing: boolean;
  /** The follower over the feed's client: `new RegistryFollower(feed, options)` with this registry's feed. */
  follow(
    client: HttpClient,
    base: string,
    options: Required<Pick<FollowerOptions, 'now' | 'relistEveryDays'>>,
    context: FeedContext,
  ): Follower;
}

/** The kinds read from a package registry (the others: a repository, an image, a distribution). */
export type PackageKind = Exclude<ComponentKind, 'github' | 'docker' | 'distro'>;

export interface PackageRegistry {
  kind: PackageKind;
  /**
   * The hosts its reader sends requests to, by the names their URLs and budgets share
   * (TENDED_BUDGET_*, the metrics): the reader is given these and no other.
   */
  readerHosts: readonly HostedUpstream[];
  reader(context: ReaderContext): UpstreamSource;
  /** null for a registry read package by package but not followed (Maven Central has no change feed). */
  following: RegistryFollowing | null;
}
