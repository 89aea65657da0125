import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, Store } from '../storage/store.js';

/**
 * API keys raise a client's rate limit (spec §5, §8); they are never needed under the free limit.
 * A key is shown once, when it is made; the store keeps only its SHA-256, so a copy of the database
 * gives no usable key.
 */

const KEY_PREFIX = 'tnd_';
/** `tnd_` and 43 base64url characters (32 random bytes). */
const KEY_SHAPE = /^tnd_[\w-]{43}$/;

export function apiKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export async function createApiKey(
  store: Store,
  label: string | null,
  now: Date,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const record = { id: `k_${randomBytes(5).toString('hex')}`, label, created_at: now.toISOString() };
  await store.apiKeyCreate({ ...record, key_hash: apiKeyHash(key) });
  return { key, record: { ...record, revoked_at: null } };
}

export function revokeApiKey(store: Store, id: string, now: Date): Promise<boolean> {
  return store.apiKeyRevoke(id, now.toISOString());
}

export function listApiKeys(store: Store): Promise<ApiKeyRecord[]> {
  return store.apiKeys();
}

export type KeyCheck =
  | { status: 'valid'; id: string }
  | { status: 'malformed' | 'unknown' }
  | { status: 'revoked'; id: string; revoked_at: string };

/** Entries kept at most; past it the cache starts over (random keys must not grow it without end). */
const CACHE_ENTRIES = 10_000;

/**
 * Checks X-API-Key values against the store, remembering each answer (valid, unknown or revoked)
 * for `cacheMs`: a revoke takes effect within that bound, and a client repeating a key costs one
 * lookup per bound, not one per request. A value not shaped like a key is refused without a lookup.
 */
export function apiKeyChecker(store: Store, cacheMs: number, now: () => number = () => performance.now()) {
  const cache = new Map<string, { check: KeyCheck; until: number }>();
  return async (key: string): Promise<KeyCheck> => {
    if (!KEY_SHAPE.test(key)) return { status: 'malformed' };
    const hash = apiKeyHash(key);
    const at = now();
    const cached = cache.get(hash);
    if (cached && cached.until > at) return cached.check;
    const record = await store.apiKeyByHash(hash);
    const check: KeyCheck = !record
      ? { status: 'unknown' }
      : record.revoked_at
        ? { status: 'revoked', id: record.id, revoked_at: record.revoked_at }
        : { status: 'valid', id: record.id };
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    cache.set(hash, { check, until: at + cacheMs });
    return check;
  };
}
