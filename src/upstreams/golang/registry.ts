/** Go: module versions from the module proxy (and the repository behind one), followed through index.golang.org. */
import { RegistryFollower } from '../following/registry-follower.js';
import { SMALL_BODY, type PackageRegistry } from '../registry.js';
import { createGoFeed } from './follow.js';
import { createGolangSource } from './read.js';

export const GOLANG_REGISTRY: PackageRegistry = {
  kind: 'golang',
  readerHosts: ['goproxy'],
  // The same GitHub reader as the repositories': GitHub's limits are per token.
  reader: ({ host, github }) => {
    const { client, base } = host('goproxy', SMALL_BODY);
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
