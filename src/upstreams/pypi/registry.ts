/** PyPI: a project's JSON from pypi.org, followed through its changelog journal and /simple/ listing. */
import { RegistryFollower } from '../following/registry-follower.js';
import { LARGE_BODY, type PackageRegistry } from '../registry.js';
import { createPypiFeed } from './follow.js';
import { createPypiSource } from './read.js';

export const PYPI_REGISTRY: PackageRegistry = {
  kind: 'pypi',
  readerHosts: ['pypi'],
  reader: ({ host }) => {
    const { client, base } = host('pypi', LARGE_BODY);
    return createPypiSource(client, base);
  },
  following: {
    registry: 'pypi',
    // The same pypi.org the readers read: one budget.
    budget: 'pypi',
    passEveryMs: 60_000,
    relistEveryDays: null,
    comparableListing: false,
    follow: (client, base, options) => new RegistryFollower(createPypiFeed(client, base, options.now), options),
  },
};
