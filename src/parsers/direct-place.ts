import type { TreePlace } from './reference.js';

/**
 * The place of an entry a manifest names itself (DESIGN §8d): direct, with an empty path, and dev
 * or optional only where the file says so. A manifest resolves nothing, so it gives no version.
 */
export function directPlace(how: { dev?: boolean; optional?: boolean } = {}): TreePlace {
  return PLACES[(how.dev ? 1 : 0) + (how.optional ? 2 : 0)]!;
}

// One shared, frozen object per kind of place: a manifest of a hundred thousand names allocates
// none (the timing fuzz holds package.json to its per-MB budget), and a shared place cannot be
// changed by one reference under another (merges copy it: mergeTreePlace).
const place = (dev: boolean, optional: boolean): TreePlace =>
  Object.freeze({
    scope: 'direct' as const,
    via: Object.freeze([]) as unknown as string[],
    ...(dev ? { dev: true } : {}),
    ...(optional ? { optional: true } : {}),
  });
const PLACES = [place(false, false), place(true, false), place(false, true), place(true, true)];
