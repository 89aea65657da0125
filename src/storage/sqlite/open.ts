import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyStore } from '../kysely-store.js';
import type { Database as Schema } from '../schema.js';
import type { Store } from '../store.js';
import { sqliteMigrations } from './migrations.js';

/** Opens (creating if needed) the SQLite file at `path` and applies pending migrations. */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new Database(path);
  // WAL lets readers go on while the sequencer appends; the busy timeout makes a second writer
  // process (an import, a CLI observe) wait for the lock instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 10000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  const store = new KyselyStore('sqlite', new Kysely<Schema>({ dialect: new SqliteDialect({ database }) }), sqliteMigrations);
  await store.migrate();
  return store;
}
