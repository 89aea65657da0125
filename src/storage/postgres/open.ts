import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { KyselyStore } from '../kysely-store.js';
import type { Database as Schema } from '../schema.js';
import type { Store } from '../store.js';
import { postgresMigrations } from './migrations.js';

// Leaf indices and tree sizes are bigint columns; they stay far below 2^53, so read them as numbers.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
};

const MIGRATION_LOCK = 0x7465_6e64; // "tend": one advisory lock so two starting processes migrate once

/** Connects to PostgreSQL at `url` and applies pending migrations. */
export async function openPostgresStore(url: string, options: { max?: number } = {}): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const store = new KyselyStore('postgres', db, postgresMigrations, async (kdb, run) =>
    kdb.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
      try {
        return await run();
      } finally {
        await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
      }
    }),
  );
  await store.migrate();
  return store;
}
