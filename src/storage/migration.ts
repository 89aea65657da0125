import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** One schema change: the same version and name on both backends, DDL in each backend's dialect. */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Applies the migrations not yet recorded, each in its own transaction, in version order. */
export async function applyMigrations(db: Kysely<Database>, migrations: Migration[]): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`.execute(
    db,
  );
  const done = new Set(
    (await db.selectFrom('schema_migrations').select('version').execute()).map((r) => Number(r.version)),
  );
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    await db.transaction().execute(async (trx) => {
      for (const statement of m.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ version: m.version, name: m.name, applied_at: new Date().toISOString() })
        .execute();
    });
  }
}
