/** npm: packuments from registry.npmjs.org, followed through replicate.npmjs.com's _changes. */
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { createNpmFeed, NPM_RELIST_DAYS } from './follow.js';
import { createNpmSource } from './read.js';

const MiB = 1024 * 1024;

export const NPM_REGISTRY: PackageRegistry = {
  kind: 'npm',
  readerHosts: ['npm'],
  // Full packuments of big projects run to tens of megabytes.
  reader: ({ host }) => {
    const { client, base } = host('npm', 96 * MiB);
    return createNpmSource(client, base);
  },
  following: {
    registry: 'npm',
    budget: 'npmReplicate',
    // Its rows carry no time and are dated the day they are read: read every minute.
    passEveryMs: 60_000,
    // Root and _changes pages of at most 10,000 rows (an id of ≤ 214 characters and a rev: ~3 MB at worst).
    pageBodyCap: 32 * MiB,
    relistEveryDays: NPM_RELIST_DAYS,
    comparableListing: true,
    follow: (client, base, options, { npm }) =>
      new RegistryFollower(createNpmFeed(client, base, { ...npm, now: options.now }), options),
  },
};
