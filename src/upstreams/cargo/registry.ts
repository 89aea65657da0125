/**
 * crates.io: the sparse index, the API for dates the index lacks and OSV for RustSec's advisories;
 * followed through the RSS of updates, the daily dump, and OSV's export of advisories.
 */
import { trimTrailing } from '../../domain/text.js';
import { RegistryFollower } from '../following/registry-follower.js';
import { SMALL_BODY, type PackageRegistry } from '../registry.js';
import { OSV_EXPORT_BODY_CAP } from './advisories-feed.js';
import { createCratesFeed, CRATES_RELIST_DAYS } from './follow.js';
import { createCargoSource } from './read.js';
/** crates.io's data-access policy: at most one API request a second (the index has no limit). */
export const CRATES_API_INTERVAL_MS = 1_000;

export const CARGO_REGISTRY: PackageRegistry = {
  kind: 'cargo',
  readerHosts: ['cratesIndex', 'crates', 'osv'],
  reader: ({ host }) =>
    createCargoSource(
      host('cratesIndex', SMALL_BODY),
      host('crates', SMALL_BODY, CRATES_API_INTERVAL_MS),
      host('osv', SMALL_BODY),
    ),
  following: {
    registry: 'cargo',
    budget: 'cratesStatic',
    // Its RSS keeps at least an hour: ten minutes is well inside it.
    passEveryMs: 10 * 60_000,
    relistEveryDays: CRATES_RELIST_DAYS,
    comparableListing: false,
    follow: (client, base, options, { feedClient, osvExport }) => {
      const osvBase = trimTrailing(osvExport, '/');
      const osv = { client: feedClient('osv-export', osvBase, 'osvExport', OSV_EXPORT_BODY_CAP), base: osvBase };
      return new RegistryFollower(createCratesFeed(client, base, osv, options.now), options);
    },
  },
};
