import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { logNotary } from '../src/operations/deps.js';
import { auditLog, storeLogSource } from '../src/operations/audit-log.js';
import { applyMigrations } from '../src/storage/migration.js';
import { postgresMigrations } from '../src/storage/postgres/migrations.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import type { Database as Schema } from '../src/storage/schema.js';
import { openSqliteDatabase } from '../src/storage/sqlite/driver.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import type { Store } from '../src/storage/store.js';
import { githubObservation, POSTGRES_URL } from './support/record.js';
import { recordAnswers } from './support/record-answers.js';
import { VARIED_COMPONENTS, VARIED_DATES } from './support/varied-record.js';

/**
 * Migration 11 (leaves in blocks, a series row per component) on a record the previous layout's
 * code wrote (test/fixtures/layout-v10, made by its make.ts): every leaf hash, head, proof and
 * answer the store gives afterwards is what that code gave before, byte for byte.
 */
const FIXTURE = new URL('./fixtures/layout-v10/', import.meta.url).pathname;
const before = gunzipSync(readFileSync(join(FIXTURE, 'answers.json.gz'))).toString('utf8');
const privateKey = createPrivateKey(readFileSync(join(FIXTURE, 'log-key.pem')));
const notary = logNotary('test.tended.local/log', privateKey, createPublicKey(privateKey));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function fixtureCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tended-layout-'));
  dirs.push(dir);
  copyFileSync(join(FIXTURE, 'layout-v10.db'), join(dir, 'tended.db'));
  return join(dir, 'tended.db');
}

/** The migrated store still verifies whole, and takes appends that read back. */
async function stillWorks(store: Store): Promise<void> {
  const report = await auditLog(storeLogSource(store, (await store.latestHead())!), notary.verifier, notary.origin);
  expect(report.tree_size).toBe(168);
  const { observations } = await store.appendObservations(
    [githubObservation('acme/repo-1', '2025-03-01', 'dormant')],
    notary.seal,
  );
  expect(await store.componentVersion({ kind: 'github', id: 'acme/repo-1' })).toBe(observations[0]!.leaf_index);
  expect((await store.seriesAt({ kind: 'github', id: 'acme/repo-1' }, '2025-03-01')).reading).toEqual(observations[0]);
  const after = await auditLog(storeLogSource(store, (await store.latestHead())!), notary.verifier, notary.origin);
  expect(after.tree_size).toBe(169);
}

describe('migration 11 on SQLite', () => {
  it('gives every leaf, head, proof and answer of the record as the previous layout gave them', async () => {
    const store = await openSqliteStore(fixtureCopy());
    try {
      expect(await recordAnswers(store, VARIED_COMPONENTS, VARIED_DATES)).toBe(before);
      await stillWorks(store);
    } finally {
      await store.close();
    }
  });

  it('resumes a conversion cut off halfway, and writes nothing twice', async () => {
    const path = fixtureCopy();
    const db = openSqliteDatabase(path);
    const m11 = (await import('../src/storage/sqlite/migrations.js')).sqliteMigrations.find((m) => m.version === 11)!;
    const kdb = new Kysely<Schema>({
      dialect: new (await import('kysely')).SqliteDialect({ database: db }),
    });
    for (const statement of m11.prepare!) db.exec(statement);
    await m11.convert!(kdb);
    // What a run cut off after its first steps leaves: a prefix of the blocks and of the series.
    db.exec('DELETE FROM leaf_blocks WHERE block >= 4');
    db.exec('DELETE FROM series WHERE component_id > 7');
    await kdb.destroy();
    const store = await openSqliteStore(path);
    try {
      expect(await recordAnswers(store, VARIED_COMPONENTS, VARIED_DATES)).toBe(before);
    } finally {
      await store.close();
    }
  });
});

// Fails loudly when PostgreSQL is not there (TENDED_TEST_POSTGRES_URL); never skipped.
describe('migration 11 on PostgreSQL', () => {
  it('converts a record another process went on appending to while the passes ran, and answers as before', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    const kdb = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    await applyMigrations(
      kdb,
      postgresMigrations.filter((m) => m.version <= 10),
    );
    const sqlite = openSqliteDatabase(fixtureCopy(), { readonly: true });
    // The record as it stood at its head of size 52, then what the previous version appended
    // while the conversion's passes ran: the last step must take it in.
    const SPLIT = 52;
    const split = sqlite.prepare('SELECT * FROM heads WHERE tree_size = ?').get(SPLIT) as { head_hash: string };
    await copyRows(pool, sqlite, (table, row) => atSplit(table, row, SPLIT, true));
    await pool.query(
      `UPDATE log_state SET tree_size = $1, head_hash = $2, last_logged_at = (SELECT logged_at FROM leaves WHERE idx = $3)`,
      [SPLIT, split.head_hash, SPLIT - 1],
    );
    const m11 = postgresMigrations.find((m) => m.version === 11)!;
    for (const statement of m11.prepare!) await pool.query(statement);
    await m11.convert!(kdb);
    await copyRows(pool, sqlite, (table, row) => atSplit(table, row, SPLIT, false));
    const last = sqlite.prepare('SELECT * FROM log_state').get() as Record<string, unknown>;
    await pool.query(`UPDATE log_state SET tree_size = $1, head_hash = $2, last_logged_at = $3`, [
      last['tree_size'],
      last['head_hash'],
      last['last_logged_at'],
    ]);
    await kdb.destroy();
    sqlite.close();
    const store = await openPostgresStore(url.toString(), { max: 2 });
    try {
      expect(await recordAnswers(store, VARIED_COMPONENTS, VARIED_DATES)).toBe(before);
      await stillWorks(store);
    } finally {
      await store.close();
    }
  });
});

/** Tables of layout 10 in the order their foreign keys need, and the leaf each row belongs to. */
const TABLES: [string, (row: Record<string, unknown>) => number | null][] = [
  ['components', () => null],
  ['leaves', (r) => Number(r['idx'])],
  ['observations', (r) => Number(r['leaf_index'])],
  ['census', (r) => Number(r['leaf_index'])],
  ['key_sets', (r) => Number(r['leaf_index'])],
  ['tree_nodes', (r) => (Number(r['idx']) + 1) * 2 ** Number(r['level']) - 1],
  ['heads', (r) => Number(r['tree_size']) - 1],
  ['watch', () => null],
  ['upstream_cache', () => null],
  ['api_keys', () => null],
];

/** Whether `row` goes in the first copy (it belongs to the record up to `split` leaves) or the second. */
function atSplit(table: string, row: Record<string, unknown>, split: number, first: boolean): boolean {
  const leaf = TABLES.find(([name]) => name === table)![1](row);
  const early = leaf === null || leaf < split;
  return first ? early : !early;
}

async function copyRows(
  pool: pg.Pool,
  sqlite: Database.Database,
  keep: (table: string, row: Record<string, unknown>) => boolean,
): Promise<void> {
  for (const [table] of TABLES) {
    for (const row of sqlite.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]) {
      if (!keep(table, row)) continue;
      const columns = Object.keys(row);
      await pool.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((c) => row[c]),
      );
    }
  }
  await pool.query(`SELECT setval(pg_get_serial_sequence('components', 'id'), (SELECT max(id) FROM components))`);
}
