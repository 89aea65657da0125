/** RubyGems: a gem's versions from rubygems.org, followed through the compact index's /versions file. */
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { createGemFeed } from './follow.js';
import { createGemSource } from './read.js';

const MiB = 1024 * 1024;

export const GEM_REGISTRY: PackageRegistry = {
  kind: 'gem',
  readerHosts: ['rubygems'],
  reader: ({ host }) => {
    const { client, base } = host('rubygems', 8 * MiB);
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
