import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/** One schema change: the same version and name on both backends, DDL in each backend's dialect. */
export interface Migration {
  version: number;
  name: string;
  /**
   * A change too large for one transaction (rewriting every leaf of a big log) comes in three
   * parts: `prepare` (idempotent DDL, its own transaction), then `convert` (many small committed
   * steps, which resumes where an interrupted run stopped), then the statements with `finish` in
   * one last transaction, which records the version.
   */
  prepare?: string[];
  convert?: (db: Kysely<Database>) => Promise<void>;
  /** Runs inside the last transaction, before the statements. */
  finish?: (trx: Transaction<Database>) => Promise<void>;
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
    if (m.prepare) {
      await db.transaction().execute(async (trx) => {
        for (const statement of m.prepare!) await sql.raw(statement).execute(trx);
      });
    }
    if (m.convert) await m.convert(db);
    await db.transaction().execute(async (trx) => {
      if (m.finish) await m.finish(trx);
      for (const statement of m.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ version: m.version, name: m.name, applied_at: new Date().toISOString() })
        .execute();
    });
  }
}
