/** Go: module versions from the module proxy (and the repository behind one), followed through index.golang.org. */
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { createGoFeed } from './follow.js';
import { createGolangSource } from './read.js';

const MiB = 1024 * 1024;

export const GOLANG_REGISTRY: PackageRegistry = {
  kind: 'golang',
  readerHosts: ['goproxy'],
  // The same GitHub reader as the repositories': GitHub's limits are per token.
  reader: ({ host, github }) => {
    const { client, base } = host('goproxy', 8 * MiB);
    return createGolangSource(client, base, github);
  },
  following: {
    registry: 'golang',
    budget: 'goIndex',
    passEveryMs: 60_000,
    relistEveryDays: null,
    // The index lists old versions as well as new: a re-listing cannot say what changed.
    comparableListing: false,
    follow: (client, base, options) => new RegistryFollower(createGoFeed(client, base), options),
  },
};
