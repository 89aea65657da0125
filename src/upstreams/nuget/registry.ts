/** NuGet: registration indexes from nuget.org's V3 API, followed through its catalog. */
import { RegistryFollower } from '../following/registry-follower.js';
import { LARGE_BODY, type PackageRegistry } from '../registry.js';
import { createNugetFeed } from './follow.js';
import { createNugetSource } from './read.js';

export const NUGET_REGISTRY: PackageRegistry = {
  kind: 'nuget',
  readerHosts: ['nuget'],
  reader: ({ host }) => {
    const { client, base } = host('nuget', LARGE_BODY);
    return createNugetSource(client, base);
  },
  following: {
    registry: 'nuget',
    budget: 'nuget',
    // The catalog index is a large document read whole each pass: five minutes.
    passEveryMs: 5 * 60_000,
    relistEveryDays: null,
    // The catalog lists old versions as well as new: a re-listing cannot say what changed.
    comparableListing: false,
    follow: (client, base, options) => new RegistryFollower(createNugetFeed(client, base), options),
  },
};
