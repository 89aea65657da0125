/** Builds a follower for each followed registry over its own feed client: each feed has its own limits. */
import { trimTrailing } from '../domain/text.js';
import { OSV_EXPORT_BODY_CAP } from './cargo/advisories-feed.js';
import { createCratesFollower } from './cargo/follow.js';
import { createComposerFollower } from './composer/follow.js';
import { createFeedClient, FEED_BODY_CAPS, FEED_BUDGETS, type FeedClientOptions } from './following/feed-client.js';
import type { FeedUrls, FollowedRegistry, Follower } from './following/follower.js';
import { createGemFollower } from './gem/follow.js';
import { createGoFollower } from './golang/follow.js';
import { createNpmFollower } from './npm/follow.js';
import { createNugetFollower } from './nuget/follow.js';
import { createPypiFollower } from './pypi/follow.js';

export interface FollowersOptions extends FeedClientOptions {
  urls: FeedUrls;
  /** OSV's export bucket (TENDED_OSV_EXPORT_URL): RustSec's advisories, followed beside crates.io's feed. */
  osvExport: string;
  /** The followers' clock (hint dates, faults, periodic re-listing). */
  clock: () => Date;
  /** npm's trailing window in seq (default TRAILING_WINDOW) and page size (default 10,000). */
  npm?: { window?: number; pageSize?: number };
  /** Re-list a registry this often though nothing broke (npm: 7 days, crates.io: 1; others: never). */
  relistEveryDays?: Partial<Record<FollowedRegistry, number | null>>;
}

export function createFollower(registry: FollowedRegistry, options: FollowersOptions): Follower {
  const base = trimTrailing(options.urls[registry], '/');
  const cap = FEED_BODY_CAPS[registry];
  const capped = cap !== undefined && (options.maxBodyBytes === undefined || options.maxBodyBytes > cap);
  const client = createFeedClient(
    `${registry}-feed`,
    base,
    capped ? { ...options, maxBodyBytes: cap } : options,
    FEED_BUDGETS[registry],
  );
  const common = {
    now: options.clock,
    ...(options.relistEveryDays && registry in options.relistEveryDays
      ? { relistEveryDays: options.relistEveryDays[registry] ?? null }
      : {}),
  };
  switch (registry) {
    case 'npm':
      return createNpmFollower(client, base, { ...common, ...options.npm });
    case 'pypi':
      return createPypiFollower(client, base, common);
    case 'cargo': {
      const osvBase = trimTrailing(options.osvExport, '/');
      const maxBodyBytes = Math.min(options.maxBodyBytes ?? OSV_EXPORT_BODY_CAP, OSV_EXPORT_BODY_CAP);
      const osv = createFeedClient('osv-export', osvBase, { ...options, maxBodyBytes }, 'osvExport');
      return createCratesFollower(client, base, { client: osv, base: osvBase }, common);
    }
    case 'golang':
      return createGoFollower(client, base, common);
    case 'nuget':
      return createNugetFollower(client, base, common);
    case 'gem':
      return createGemFollower(client, base, common);
    case 'composer':
      return createComposerFollower(client, base, common);
  }
}
