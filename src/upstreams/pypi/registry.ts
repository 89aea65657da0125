/** PyPI: a project's JSON from pypi.org, followed through its changelog journal and /simple/ listing. */
import { RegistryFollower } from '../following/registry-follower.js';
import type { PackageRegistry } from '../registry.js';
import { createPypiFeed } from './follow.js';
import { createPypiSource } from './read.js';

const MiB = 1024 * 1024;

export const PYPI_REGISTRY: PackageRegistry = {
  kind: 'pypi',
  readerHosts: ['pypi'],
  // Project documents of big projects run to tens of megabytes.
  reader: ({ host }) => {
    const { client, base } = host('pypi', 96 * MiB);
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
