import type { TreePlace } from './reference.js';

/**
 * The place of an entry a manifest names itself (DESIGN §8d): direct, with an empty path, and dev
 * or optional only where the file says so. A manifest resolves nothing, so it gives no version.
 */
export function directPlace(how: { dev?: boolean; optional?: boolean } = {}): TreePlace {
  return { scope: 'direct', via: [], ...(how.dev ? { dev: true } : {}), ...(how.optional ? { optional: true } : {}) };
}
