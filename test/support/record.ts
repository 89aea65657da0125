import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { normaliseComponent } from '../../src/domain/component.js';
import type { NewObservation } from '../../src/domain/observation.js';
import type { State } from '../../src/domain/state.js';
import { logNotary, type Clock, type RecordDeps } from '../../src/operations/deps.js';
import { openPostgresStore } from '../../src/storage/postgres/open.js';
import { openSqliteStore } from '../../src/storage/sqlite/open.js';
import type { Store } from '../../src/storage/store.js';

/** Where the PostgreSQL suites run. CI points it at a throw-away database; a missing server fails them. */
export const POSTGRES_URL = process.env.TENDED_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestStore {
  store: Store;
  /** The store's address, for another process: `sqlite:PATH` or a postgres:// URL. */
  url: string;
  /** Opens a second, independent connection to the same database (another process, in effect). */
  reopen(): Promise<Store>;
  dispose(): Promise<void>;
}

export async function sqliteTestStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'tended-test-'));
  const path = join(dir, 'tended.db');
  const store = await openSqliteStore(path);
  const extra: Store[] = [];
  return {
    store,
    url: `sqlite:${path}`,
    reopen: async () => {
      const s = await openSqliteStore(path);
      extra.push(s);
      return s;
    },
    dispose: async () => {
      for (const s of [store, ...extra]) await s.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The backends the slow end-to-end suites (whole processes following registries for days) run on.
 * Both store adapters pass one contract suite (store-contract.ts), so an end-to-end case proves
 * the same on either: CI runs them once per Node run, on SQLite under one Node and on PostgreSQL
 * under the other (TENDED_TEST_E2E_BACKEND=sqlite|postgres); unset, both run. A value that is
 * neither fails the run rather than running nothing.
 */
export function endToEndBackends<T extends readonly [string, ...unknown[]]>(cases: readonly T[]): T[] {
  const chosen = process.env.TENDED_TEST_E2E_BACKEND;
  if (chosen === undefined || chosen === '' || chosen === 'both') return [...cases];
  if (chosen !== 'sqlite' && chosen !== 'postgres')
    throw new Error(`TENDED_TEST_E2E_BACKEND must be sqlite, postgres or both; got "${chosen}"`);
  return cases.filter((c) => c[0] === chosen);
}

/** A fresh schema per test in the PostgreSQL database: isolated, and much faster than CREATE DATABASE. */
export async function postgresTestStore(): Promise<TestStore> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const store = await openPostgresStore(url.toString(), { max: 4 });
  const extra: Store[] = [];
  return {
    store,
    url: url.toString(),
    reopen: async () => {
      const s = await openPostgresStore(url.toString(), { max: 4 });
      extra.push(s);
      return s;
    },
    dispose: async () => {
      for (const s of [store, ...extra]) await s.close().catch(() => {});
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

export function testNotary(origin = 'test.tended.local/log') {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    ...logNotary(origin, privateKey, publicKey),
    /** Writes the private key to a PEM file, for another process that must sign as this log. */
    keyFile(dir: string): string {
      const path = join(dir, `key-${randomBytes(4).toString('hex')}.pem`);
      writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }));
      return path;
    },
  };
}

/** Runs test/support/claim-process.ts to completion; resolves the ids it claimed. */
export function claimProcess(
  url: string,
  now: string,
  lease: string,
  limit: number,
  rounds: number,
): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./claim-process.ts', import.meta.url)),
      url,
      now,
      lease,
      String(limit),
      String(rounds),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`claim process failed: ${err}`)),
    ),
  );
}

/** Starts test/support/append-process.ts; resolves its exit code, and lets the test kill it. */
export function appendProcess(args: {
  url: string;
  keyFile: string;
  origin: string;
  prefix: string;
  count: number;
  batch: number;
}) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./append-process.ts', import.meta.url)),
      args.url,
      args.keyFile,
      args.origin,
      args.prefix,
      String(args.count),
      String(args.batch),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })),
  );
  const batches = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (out.split('batch').length - 1 >= n ? resolve() : undefined);
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`the append process exited before ${n} batches: ${err}`)));
      check();
    });
  return { child, exited, batches };
}

export function fixedClock(isoInstant: string): Clock & { set(iso: string): void } {
  let now = new Date(isoInstant);
  return { now: () => now, set: (iso) => (now = new Date(iso)) };
}

export function recordDeps(
  store: Store,
  clockAt = '2026-11-22T12:00:00Z',
): RecordDeps & { clock: ReturnType<typeof fixedClock> } {
  return { store, notary: testNotary(), clock: fixedClock(clockAt) };
}

/** A GitHub observation as the observer would record it. */
export function githubObservation(
  repo: string,
  date: string,
  state: State,
  extra: Partial<NewObservation> = {},
): NewObservation {
  const component = normaliseComponent('github', repo);
  return {
    component,
    observed_at: `${date}T06:00:00Z`,
    observation_date: date,
    state,
    source: `https://api.github.com/repos/${component.id}`,
    evidence: { http_status: state === 'not_observed' ? 429 : 200, archived: state === 'archived' },
    method: 'github: default-branch head commit date and archived flag',
    corrects: null,
    ...extra,
  };
}
