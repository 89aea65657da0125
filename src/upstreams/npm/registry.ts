/** npm: packuments from registry.npmjs.org, followed through replicate.npmjs.com's _changes. */
import { RegistryFollower } from '../following/registry-follower.js';
import { LARGE_BODY, type PackageRegistry } from '../registry.js';
import { createNpmFeed, NPM_RELIST_DAYS } from './follow.js';
import { createNpmSource } from './read.js';

export const NPM_REGISTRY: PackageRegistry = {
  kind: 'npm',
  readerHosts: ['npm'],
  reader: ({ host }) => {
    const { client, base } = host('npm', LARGE_BODY);
    return createNpmSource(client, base);
  },
  following: {
    registry: 'npm',
    budget: 'npmReplicate',
    // Its rows carry no time and are dated the day they are read: read every minute.
    passEveryMs: 60_000,
    // Root and _changes pages of at most 10,000 rows (an id of ≤ 214 characters and a rev: ~3 MB at worst).
    pageBodyCap: 32 * 1024 * 1024,
    relistEveryDays: NPM_RELIST_DAYS,
    comparableListing: true,
    follow: (client, base, options, { npm }) =>
      new RegistryFollower(createNpmFeed(client, base, { ...npm, now: options.now }), options),
  },
};
