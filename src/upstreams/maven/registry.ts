/** Maven Central: a project's metadata and POMs, read package by package (Central has no change feed). */
import { SMALL_BODY, type PackageRegistry } from '../registry.js';
import { createMavenSource } from './read.js';

export const MAVEN_REGISTRY: PackageRegistry = {
  kind: 'maven',
  readerHosts: ['maven'],
  reader: ({ host }) => {
    const { client, base } = host('maven', SMALL_BODY);
    return createMavenSource(client, base);
  },
  following: null,
};
