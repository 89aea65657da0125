import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { ComponentRef } from '../../domain/component.js';
import { COMPONENT_VERSION_SELECT } from '../kysely-read.js';
import { KyselyStore } from '../kysely-store.js';
import { latestLeaf, pickFromEntries } from '../series-entries.js';
import type { Database as Schema } from '../schema.js';
import { OTHER_WRITER_LAG_MS, type Store } from '../store.js';
import { openSqliteDatabase } from './driver.js';
import { sqliteMigrations } from './migrations.js';

/** Opens (creating if needed) the SQLite file at `path` and applies pending migrations. */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = openSqliteDatabase(path);
  // WAL lets readers go on while the sequencer appends; the busy timeout makes a second writer
  // process (an import, a CLI observe) wait for the lock instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 10000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  // The reading an answer rests on, picked from a series row inside the query (series-entries.ts);
  // PostgreSQL has the same function in SQL (migration 11). A BigInt comes back as an INTEGER.
  database.function('tended_series_pick', { deterministic: true }, (entries: unknown, day: unknown) => {
    const leaf = pickFromEntries(entries instanceof Uint8Array ? entries : null, Number(day));
    return leaf === null ? null : BigInt(leaf);
  });
  const store = new SqliteStore(database);
  await store.migrate();
  return store;
}

// The same statements as KyselyStore.componentVersion and censusVersion, with SQLite's placeholders.
const COMPONENT_VERSION_SQL = `${COMPONENT_VERSION_SELECT} WHERE component_id = (SELECT id FROM components WHERE kind = ? AND native_id = ?)`;
const CENSUS_VERSION_SQL =
  'SELECT max(leaf_index) AS version FROM census WHERE component_id = (SELECT id FROM components WHERE kind = ? AND native_id = ?)';

/**
 * The shared kysely store, with the one query every entity read makes answered from memory while
 * the database is unchanged. This connection's own appends clear the memory as they commit;
 * SQLite's data_version, which moves when another connection (another process) commits, is read
 * at most every OTHER_WRITER_LAG_MS.
 */
class SqliteStore extends KyselyStore {
  private readonly versions = new Map<string, number | null>();
  private dataVersion: Database.Statement<[], number>;
  private seenDataVersion = -1;
  private checkedAt = -Infinity;
  private versionQuery: Database.Statement<[string, string], { last: Uint8Array }> | null = null;
  private censusQuery: Database.Statement<[string, string], { version: number | null }> | null = null;

  constructor(private readonly database: Database.Database) {
    super(
      'sqlite',
      new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }),
      sqliteMigrations,
    );
    this.dataVersion = database.prepare<[], number>('PRAGMA data_version').pluck();
  }

  override async componentVersion(ref: ComponentRef): Promise<number | null> {
    // While an append is open on this connection, a direct read would see its uncommitted rows;
    // the kysely path waits for the append to finish.
    if (this.database.inTransaction) return super.componentVersion(ref);
    return this.remembered(`${ref.kind}:${ref.id}`, () => {
      // Prepared on first use: the tables exist only once migrations have run.
      this.versionQuery ??= this.database.prepare(COMPONENT_VERSION_SQL);
      const row = this.versionQuery.get(ref.kind, ref.id);
      return row ? latestLeaf(row.last) : null;
    });
  }

  override async censusVersion(ref: ComponentRef): Promise<number | null> {
    if (this.database.inTransaction) return super.censusVersion(ref);
    return this.remembered(`census ${ref.kind}:${ref.id}`, () => {
      this.censusQuery ??= this.database.prepare(CENSUS_VERSION_SQL);
      return this.censusQuery.get(ref.kind, ref.id)?.version ?? null;
    });
  }

  private remembered(key: string, read: () => number | null): number | null {
    const now = performance.now();
    if (now - this.checkedAt >= OTHER_WRITER_LAG_MS) {
      this.checkedAt = now;
      const dataVersion = this.dataVersion.get()!;
      if (dataVersion !== this.seenDataVersion) {
        this.versions.clear();
        this.seenDataVersion = dataVersion;
      }
    }
    let version = this.versions.get(key);
    if (version === undefined) {
      version = read();
      if (this.versions.size >= VERSION_CACHE_ENTRIES) this.versions.clear();
      this.versions.set(key, version);
    }
    return version;
  }

  override async appendObservations(...args: Parameters<KyselyStore['appendObservations']>) {
    try {
      return await super.appendObservations(...args);
    } finally {
      this.versions.clear();
    }
  }

  override async appendCensus(...args: Parameters<KyselyStore['appendCensus']>) {
    try {
      return await super.appendCensus(...args);
    } finally {
      this.versions.clear();
    }
  }

  override async importLeaves(...args: Parameters<KyselyStore['importLeaves']>) {
    try {
      return await super.importLeaves(...args);
    } finally {
      this.versions.clear();
    }
  }
}

const VERSION_CACHE_ENTRIES = 10_000;

const STATEMENT_CACHE_ENTRIES = 500;

/**
 * kysely prepares every query anew; preparing costs more than running a small indexed query. The
 * store issues a few hundred distinct SQL strings (their shape, not their values), so keep the
 * prepared statements. Safe because better-sqlite3 runs each statement to completion synchronously.
 */
function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_ENTRIES) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
