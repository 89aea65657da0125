import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ApiKeyRecord, NewApiKey } from './store.js';

/**
 * API keys: only a key's hash is kept, with its label and dates; queries shared by both adapters.
 * Keys are operator bookkeeping, not part of the record.
 */

type Db = Kysely<Database>;

export async function create(db: Db, key: NewApiKey): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ ...key, revoked_at: null })
    .execute();
}

/** True when a live key was revoked; false for an unknown or already revoked one. */
export async function revoke(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function list(db: Db): Promise<ApiKeyRecord[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'label', 'created_at', 'revoked_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function byHash(db: Db, keyHash: string): Promise<ApiKeyRecord | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'label', 'created_at', 'revoked_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
  return row ?? null;
}
