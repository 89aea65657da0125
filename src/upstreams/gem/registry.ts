/** RubyGems: a gem's versions from rubygems.org, followed through the compact index's /versions file. */
import { RegistryFollower } from '../following/registry-follower.js';
import { SMALL_BODY, type PackageRegistry } from '../registry.js';
import { createGemFeed } from './follow.js';
import { createGemSource } from './read.js';

export const GEM_REGISTRY: PackageRegistry = {
  kind: 'gem',
  readerHosts: ['rubygems'],
  reader: ({ host }) => {
    const { client, base } = host('rubygems', SMALL_BODY);
    return createGemSource(client, base);
  },
  following: {
    registry: 'gem',
    budget: 'rubygems',
    // Its rows carry no time and are dated the day they are read: read every minute.
    passEveryMs: 60_000,
    relistEveryDays: null,
    comparableListing: true,
    follow: (client, base, options) => new RegistryFollower(createGemFeed(client, base, options.now), options),
  },
};
