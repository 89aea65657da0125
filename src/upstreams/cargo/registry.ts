/**
 * crates.io: the sparse index, the API for dates the index lacks and OSV for RustSec's advisories;
 * followed through the RSS of updates, the daily dump, and OSV's export of advisories.
 */
import { trimTrailing } from '../../domain/text.js';
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { OSV_EXPORT_BODY_CAP } from './advisories-feed.js';
import { createCratesFeed, CRATES_RELIST_DAYS } from './follow.js';
import { createCargoSource } from './read.js';

const MiB = 1024 * 1024;
/** crates.io's data-access policy: at most one API request a second (the index has no limit). */
export const CRATES_API_INTERVAL_MS = 1_000;

export const CARGO_REGISTRY: PackageRegistry = {
  kind: 'cargo',
  readerHosts: ['cratesIndex', 'crates', 'osv'],
  reader: ({ host }) =>
    createCargoSource(
      host('cratesIndex', 8 * MiB),
      host('crates', 8 * MiB, CRATES_API_INTERVAL_MS),
      host('osv', 8 * MiB),
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
