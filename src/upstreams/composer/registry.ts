/** Packagist: a package's metadata from repo.packagist.org, followed through packagist.org's changes. */
import { RegistryFollower } from '../following/registry-follower.js';
import { LARGE_BODY, type PackageRegistry } from '../registry.js';
import { createComposerFeed } from './follow.js';
import { createComposerSource } from './read.js';

export const COMPOSER_REGISTRY: PackageRegistry = {
  kind: 'composer',
  readerHosts: ['packagist'],
  reader: ({ host }) => {
    const { client, base } = host('packagist', LARGE_BODY);
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
