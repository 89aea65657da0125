/** Maven Central: a project's metadata and POMs, read package by package (Central has no change feed). */
import type { PackageRegistry } from '../registry.js';
import { createMavenSource } from './read.js';

const MiB = 1024 * 1024;

export const MAVEN_REGISTRY: PackageRegistry = {
  kind: 'maven',
  readerHosts: ['maven'],
  reader: ({ host }) => {
    const { client, base } = host('maven', 8 * MiB);
    return createMavenSource(client, base);
  },
  following: null,
};
