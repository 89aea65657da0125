/** Packagist: a package's metadata from repo.packagist.org, followed through packagist.org's changes. */
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { createComposerFeed } from './follow.js';
import { createComposerSource } from './read.js';

const MiB = 1024 * 1024;

export const COMPOSER_REGISTRY: PackageRegistry = {
  kind: 'composer',
  readerHosts: ['packagist'],
  reader: ({ host }) => {
    const { client, base } = host('packagist', 96 * MiB);
    return createComposerSource(client, base);
  },
  following: {
    registry: 'composer',
    budget: 'packagistOrg',
    passEveryMs: 60_000,
    relistEveryDays: null,
    comparableListing: true,
    follow: (client, base, options) => new RegistryFollower(createComposerFeed(client, base), options),
  },
};
