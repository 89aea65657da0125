/** Builds a follower for each followed registry over its own feed client: each feed has its own limits. */
import { trimTrailing } from '../domain/text.js';
import { createFeedClient, type FeedClientOptions } from './following/feed-client.js';
import type { FeedUrls, FollowedRegistry, Follower } from './following/follower.js';
import { FOLLOWING } from './registries.js';

export interface FollowersOptions extends FeedClientOptions {
  urls: FeedUrls;
  /** OSV's export bucket (TENDED_OSV_EXPORT_URL): RustSec's advisories, followed beside crates.io's feed. */
  osvExport: string;
  /** The followers' clock (hint dates, faults, periodic re-listing). */
  clock: () => Date;
  /** npm's trailing window in seq (default TRAILING_WINDOW) and page size (default 10,000). */
  npm?: { window?: number; pageSize?: number };
  /** Re-list a registry this often though nothing broke (default: its folder's registry.ts; npm 7 days, crates.io 1). */
  relistEveryDays?: Partial<Record<FollowedRegistry, number | null>>;
}

export function createFollower(registry: FollowedRegistry, options: FollowersOptions): Follower {
  const following = FOLLOWING[registry];
  const base = trimTrailing(options.urls[registry], '/');
  const cap = following.pageBodyCap;
  const capped = cap !== undefined && (options.maxBodyBytes === undefined || options.maxBodyBytes > cap);
  const client = createFeedClient(
    `${registry}-feed`,
    base,
    capped ? { ...options, maxBodyBytes: cap } : options,
    following.budget,
  );
  const relist = options.relistEveryDays;
  return following.follow(
    client,
    base,
    {
      now: options.clock,
      relistEveryDays: relist && registry in relist ? (relist[registry] ?? null) : following.relistEveryDays,
    },
    {
      now: options.clock,
      ...(options.npm ? { npm: options.npm } : {}),
      osvExport: options.osvExport,
      feedClient: (upstream, feedBase, budget, maxBodyBytes) =>
        createFeedClient(
          upstream,
          feedBase,
          { ...options, maxBodyBytes: Math.min(options.maxBodyBytes ?? maxBodyBytes, maxBodyBytes) },
          budget,
        ),
    },
  );
}
