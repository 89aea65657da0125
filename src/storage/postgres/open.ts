import { createHash } from 'node:crypto';
import { PREPARED } from '../kysely-read.js';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { KyselyStore } from '../kysely-store.js';
import type { ComponentRef } from '../../domain/component.js';
import type { HeadBlock } from '../../notary/head.js';
import type { Database as Schema } from '../schema.js';
import { OTHER_WRITER_LAG_MS, type Store } from '../store.js';
import { StoreUnavailableError } from '../store-errors.js';
import { postgresMigrations } from './migrations.js';

// Leaf indices and tree sizes are bigint columns; they stay far below 2^53, so read them as numbers.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): ((value: string) => unknown) =>
    oid === (pg.types.builtins.INT8 as number)
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
};

const MIGRATION_LOCK = 0x7465_6e64; // "tend": one advisory lock so two starting processes migrate once

/**
 * Pool settings for a database that may go away and come back (DESIGN §8, issue 9):
 * - a connection attempt (or a wait for a free pool slot) gives up after CONNECT_TIMEOUT_MS, so a
 *   request during an outage is answered 503 quickly instead of hanging;
 * - TCP keep-alive notices a peer that vanished without closing the socket;
 * - idle connections are closed after a while, so a restarted server is not met with stale ones.
 * Broken connections are dropped by the pool and new ones opened on the next query: the store
 * recovers by itself as soon as the server accepts connections again.
 */
const CONNECT_TIMEOUT_MS = 3_000;
const IDLE_TIMEOUT_MS = 10_000;

/** Connects to PostgreSQL at `url` and applies pending migrations. */
export async function openPostgresStore(url: string, options: { max?: number } = {}): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection the server closed (a restart, an admin kill) is reported here and removed
  // by the pool. Unhandled, this 'error' event would end the process.
  pool.on('error', () => {});
  // A connection the server ends while it is checked out (between queries, or in the same packet
  // as the ReadyForQuery that completed its start-up, before the caller has it) emits 'error' with
  // no pool listener attached: unhandled, that ends the process. 'connect' is emitted synchronously
  // as the pool hands a new connection out, so the listener is there before any such packet. The
  // next query on it then fails (named below), and release() drops it.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: faultNamingPool(pool) }) });
  const store = new PostgresStore(db, async (kdb, run) =>
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

const VERSION_CACHE_ENTRIES = 10_000;

/**
 * The shared kysely store, with the version an entity read or a badge checks its cached answer
 * against, and the log's latest head, answered from memory while the log is unchanged: a cached
 * read then costs no query.
 * This process's own appends clear the memory as they commit; another process's are seen by
 * reading the log's size at most every OTHER_WRITER_LAG_MS (one query for all the reads in that
 * time). A version read that was under way while the memory was cleared is not remembered: it may
 * have been read before the append that cleared it.
 */
class PostgresStore extends KyselyStore {
  private readonly versions = new Map<string, number | null>();
  /** The log's latest head, once read; undefined when not known. */
  private head: HeadBlock | null | undefined;
  /** Moves whenever the memory is cleared. */
  private epoch = 0;
  private seenTreeSize = -1;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(db: Kysely<Schema>, withLock: ConstructorParameters<typeof KyselyStore>[3]) {
    super('postgres', db, postgresMigrations, withLock);
  }

  override componentVersion(ref: ComponentRef): Promise<number | null> {
    return this.remembered(`${ref.kind}:${ref.id}`, () => super.componentVersion(ref));
  }

  override censusVersion(ref: ComponentRef): Promise<number | null> {
    return this.remembered(`census ${ref.kind}:${ref.id}`, () => super.censusVersion(ref));
  }

  override async latestHead(): Promise<HeadBlock | null> {
    if (performance.now() - this.checkedAt >= OTHER_WRITER_LAG_MS) await this.checkLog();
    if (this.head !== undefined) return this.head;
    const epoch = this.epoch;
    const head = await super.latestHead();
    if (epoch === this.epoch) this.head = head;
    return head;
  }

  private async remembered(key: string, read: () => Promise<number | null>): Promise<number | null> {
    if (performance.now() - this.checkedAt >= OTHER_WRITER_LAG_MS) await this.checkLog();
    const known = this.versions.get(key);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    const version = await read();
    if (epoch === this.epoch) {
      if (this.versions.size >= VERSION_CACHE_ENTRIES) this.versions.clear();
      this.versions.set(key, version);
    }
    return version;
  }

  /** Reads the log's size (one query shared by the reads waiting on it); a new size clears the memory. */
  private checkLog(): Promise<void> {
    this.checking ??= (async () => {
      // The memory is as fresh as the moment this read starts, not the moment it ends.
      const started = performance.now();
      try {
        const size = await this.treeSize();
        if (size !== this.seenTreeSize) {
          this.forget();
          this.seenTreeSize = size;
        }
        this.checkedAt = started;
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /** Runs an append, then forgets what was remembered, whether it committed or not. */
  private async forgetting<T>(append: () => Promise<T>): Promise<T> {
    try {
      return await append();
    } finally {
      this.forget();
    }
  }

  private forget(): void {
    this.versions.clear();
    this.head = undefined;
    this.epoch++;
  }

  override initialiseLog(...args: Parameters<KyselyStore['initialiseLog']>) {
    return this.forgetting(() => super.initialiseLog(...args));
  }

  override appendKeySet(...args: Parameters<KyselyStore['appendKeySet']>) {
    return this.forgetting(() => super.appendKeySet(...args));
  }

  override appendObservations(...args: Parameters<KyselyStore['appendObservations']>) {
    return this.forgetting(() => super.appendObservations(...args));
  }

  override appendCensus(...args: Parameters<KyselyStore['appendCensus']>) {
    return this.forgetting(() => super.appendCensus(...args));
  }

  override importLeaves(...args: Parameters<KyselyStore['importLeaves']>) {
    return this.forgetting(() => super.importLeaves(...args));
  }
}

/**
 * The pool as kysely sees it, with every failure that means "the server is not reachable" turned
 * into StoreUnavailableError, so the layers above can answer 503 without knowing PostgreSQL.
 */
function faultNamingPool(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw unavailable(error);
      }
      let facade = wrapped.get(client);
      if (!facade) {
        const query = (text: string, parameters: readonly unknown[]) =>
          client
            .query(
              // The hot reads run as named statements: parsed and planned once per connection.
              text.trimStart().startsWith(PREPARED)
                ? { name: statementName(text), text, values: parameters as unknown[] }
                : { text, values: parameters as unknown[] },
            )
            .catch((error: unknown) => {
              throw isConnectionFault(error) ? unavailable(error) : error;
            });
        facade = { query, release: () => client.release() } as unknown as PostgresPoolClient;
        wrapped.set(client, facade);
      }
      return facade;
    },
    end: () => pool.end(),
  };
}

/** A name per statement text: the same text always gets the same name, on every connection. */
function statementName(text: string): string {
  return `tended_${createHash('sha256').update(text).digest('base64url').slice(0, 16)}`;
}

function unavailable(error: unknown): StoreUnavailableError {
  const reason = error instanceof Error ? ((error as { code?: string }).code ?? error.message) : String(error);
  return new StoreUnavailableError('postgres', reason);
}

// SQLSTATE class 08 (connection exception), 57P01–57P03 (shutting down, crashed, starting up),
// 53300 (too many connections); and what node reports when the socket fails.
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_GONE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

function isConnectionFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (code !== undefined && (code.startsWith('08') || SERVER_GONE.has(code) || SOCKET_GONE.has(code))) return true;
  // pg's own words for a connection that ended under a query, or was already broken.
  return /Connection terminated|not queryable|timeout exceeded when trying to connect/i.test(error.message);
}
