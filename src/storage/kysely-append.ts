import { sql, type Kysely, type Transaction } from 'kysely';
import type { Census, NewCensus } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { NewObservation, Observation, SeriesEntry } from '../domain/observation.js';
import { isAsserted, type AssertedState } from '../domain/state.js';
import { EMPTY_ROOT, leafHash } from '../notary/hash.js';
import { inLeafOrder } from '../notary/leaf.js';
import type { HeadBlock } from '../notary/head.js';
import { CompactRange, rootCoords } from '../notary/merkle.js';
import type { BlockLeaf } from './leaf-block.js';
import { keepLatestCensus, type LatestCensusRow } from './kysely-adoption.js';
import { readNodeHashes, STORED_NODE_LEVEL, writeBlocks } from './kysely-blocks.js';
import { componentIdsOf, componentKey } from './kysely-components.js';
import { toHead } from './kysely-read.js';
import { extendedSeriesRow, readSeriesRows, writeSeriesRows, type SeriesRow } from './kysely-series.js';
import type { Database } from './schema.js';
import { HeldSeries } from './series-entries.js';
import { enqueueDeliveries } from './kysely-subscriptions.js';
import type { AppendResult, HeadSealer, NewKeySet } from './store.js';
import { DuplicateObservationError, KeySetConflictError, LogInvariantError } from './store-errors.js';
import type { StateChange } from './state-change.js';

type Trx = Transaction<Database>;

/** A leaf ready to append: what it records, and its exact bytes once logged_at is fixed. */
export interface PendingLeaf {
  record:
    | { observation: NewObservation }
    | { census: NewCensus }
    | { keyset: { version: number; digest: string; full: NewKeySet | null } };
  /** Set for imported leaves, whose bytes already carry it; null for new ones. */
  logged_at: string | null;
  bytes: (loggedAt: string) => Uint8Array;
}

const ROWS_PER_INSERT = 500;

/**
 * The one way leaves enter the log: under the sequencer lock, every leaf into its block, each
 * observation into its component's series, the tree nodes and one new head, in one transaction —
 * all of it or none of it.
 */
export function appendLeaves(
  db: Kysely<Database>,
  backend: Backend,
  pending: PendingLeaf[],
  seal: HeadSealer,
): Promise<AppendResult> {
  if (pending.length === 0) return Promise.reject(new LogInvariantError('nothing to append'));
  return db.transaction().execute(async (trx) => {
    const state = await lockLog(trx, backend);
    const startSize = Number(state.tree_size);
    const range = new CompactRange(startSize, await readNodeHashes(trx, rootCoords(startSize)));
    let lastLoggedAt = state.last_logged_at;
    // Component ids and series are read for the whole batch at once: a daily pass appends
    // thousands of leaves, and a round trip per leaf would dominate the append.
    const components = await componentIdsOf(
      trx,
      pending.flatMap((entry) => refOf(entry) ?? []),
      backend,
    );
    // The series of every component the batch observes, read once: the one-per-date rule and
    // corrections are checked against them, and each gets its new readings appended.
    const held = await readSeriesRows(
      trx,
      pending.flatMap((entry) =>
        'observation' in entry.record ? [components.get(componentKey(entry.record.observation.component))!] : [],
      ),
      backend,
    );
    const series = new Map<
      number,
      {
        held: SeriesRow | null;
        /** The held row, asked from its bytes: the reading dates and leaves it lists. */
        asked: HeldSeries;
        /** The (date, correction) keys and leaves this batch adds. */
        known: Set<string>;
        leaves: Set<number>;
        added: Observation[];
        /** The last asserted reading so far in leaf order: the "from" of a state change. */
        lastAsserted: SeriesEntry | null;
      }
    >();
    const seriesOf = (componentId: number) => {
      let s = series.get(componentId);
      if (!s) {
        const row = held.get(componentId) ?? null;
        const asked = new HeldSeries(row?.entries ?? null);
        s = { held: row, asked, known: new Set(), leaves: new Set(), added: [], lastAsserted: asked.lastAsserted() };
        series.set(componentId, s);
      }
      return s;
    };
    const rows = {
      blocks: [] as BlockLeaf[],
      /** For each leaf, its component's previous asserted reading when the leaf changes its state. */
      previous: [] as (SeriesEntry | null)[],
      tree_nodes: [] as Database['tree_nodes'][],
      census: [] as Database['census'][],
      /** The batch's latest census read of each component, for census_latest. */
      latestCensus: new Map<number, LatestCensusRow>(),
      key_sets: [] as Database['key_sets'][],
      /** The batch's state changes, for the webhook outbox (imported leaves are history, not news). */
      changes: [] as StateChange[],
    };
    const result: AppendResult = {
      observations: [],
      census: [],
      key_sets: [],
      head: undefined as unknown as HeadBlock,
    };

    for (const entry of pending) {
      const index = range.size;
      if ('keyset' in entry.record && entry.record.keyset.full) {
        const latest = await trx
          .selectFrom('key_sets')
          .select((eb) => eb.fn.max('version').as('latest'))
          .executeTakeFirst();
        const latestVersion = Number(latest?.latest ?? 0) + rows.key_sets.length;
        if (entry.record.keyset.version !== latestVersion + 1)
          throw new KeySetConflictError(entry.record.keyset.version, latestVersion);
      }
      const ref = refOf(entry);
      const componentId = ref ? components.get(componentKey(ref))! : 0;
      if ('observation' in entry.record && ref) {
        const o = entry.record.observation;
        const s = seriesOf(componentId);
        const key = observedKey(o.observation_date, o.corrects !== null);
        if (s.known.has(key) || s.asked.hasReading(o.observation_date, o.corrects !== null))
          throw new DuplicateObservationError(o.component, o.observation_date, o.corrects !== null);
        s.known.add(key);
        if (o.corrects !== null && !s.leaves.has(o.corrects) && !s.asked.hasLeaf(o.corrects)) {
          throw new LogInvariantError(
            `a correction must point at an earlier observation of the same component; leaf ${o.corrects} is not one`,
          );
        }
        s.leaves.add(index);
      }
      const now = new Date().toISOString();
      const loggedAt = entry.logged_at ?? (lastLoggedAt !== null && lastLoggedAt > now ? lastLoggedAt : now);
      if (lastLoggedAt !== null && loggedAt < lastLoggedAt) {
        throw new LogInvariantError(
          `leaf ${index} was logged at ${loggedAt}, before leaf ${index - 1} (${lastLoggedAt})`,
        );
      }
      lastLoggedAt = loggedAt;
      const bytes = entry.bytes(loggedAt);
      const hash = leafHash(bytes);
      for (const { coord, hash: nodeHash } of range.append(hash).completed) {
        if (coord.level >= STORED_NODE_LEVEL)
          rows.tree_nodes.push({ level: coord.level, idx: coord.index, hash: nodeHash });
      }
      rows.blocks.push({ bytes, logged_at: loggedAt });
      let previous: SeriesEntry | null = null;
      if ('observation' in entry.record) {
        const o = { ...entry.record.observation, evidence: inLeafOrder(entry.record.observation.evidence) };
        const observation = { ...o, leaf_index: index };
        const s = seriesOf(componentId);
        if (isAsserted(o.state)) {
          if (s.lastAsserted !== null && s.lastAsserted.state !== o.state) {
            previous = s.lastAsserted;
            if (entry.logged_at === null)
              rows.changes.push({
                component: o.component,
                from: previous.state as AssertedState,
                to: o.state,
                observation_date: o.observation_date,
                previous_date: previous.observation_date,
                previous_leaf_index: previous.leaf_index,
                leaf_index: index,
                corrects: o.corrects,
                logged_at: loggedAt,
              });
          }
          s.lastAsserted = { leaf_index: index, observation_date: o.observation_date, state: o.state, corrects: null };
        }
        s.added.push(observation);
        result.observations.push(observation);
      } else if ('census' in entry.record) {
        const c = { ...entry.record.census, evidence: inLeafOrder(entry.record.census.evidence) };
        rows.census.push({
          leaf_index: index,
          component_id: componentId,
          read_at: c.read_at,
          read_date: c.read_date,
          dependents: c.dependents,
          source: c.source,
          evidence: JSON.stringify(c.evidence),
          method: c.method,
        });
        rows.latestCensus.set(componentId, {
          component_id: componentId,
          kind: c.component.kind,
          native_id: c.component.id,
          leaf_index: index,
          read_date: c.read_date,
          dependents: c.dependents,
        });
        result.census.push({ ...c, leaf_index: index } satisfies Census);
      } else {
        const k = entry.record.keyset;
        if (k.full) {
          rows.key_sets.push({
            version: k.version,
            document: JSON.stringify(k.full.document),
            digest: k.digest,
            envelope: JSON.stringify(k.full.envelope),
            leaf_index: index,
          });
          result.key_sets.push({ ...k.full, digest: k.digest, leaf_index: index });
        }
      }
      rows.previous.push(previous);
    }

    await writeBlocks(trx, startSize, rows.blocks, rows.previous);
    const seriesRows: Database['series'][] = [];
    for (const [componentId, s] of series)
      if (s.added.length > 0) seriesRows.push(extendedSeriesRow(componentId, s.held, s.added));
    await writeSeriesRows(trx, backend, seriesRows);
    if (backend === 'postgres') await insertUnnested(trx, 'tree_nodes', rows.tree_nodes);
    else await insertChunked(trx, 'tree_nodes', rows.tree_nodes);
    for (const table of ['census', 'key_sets'] as const) await insertChunked(trx, table, rows[table]);
    await keepLatestCensus(trx, rows.latestCensus.values());
    await enqueueDeliveries(trx, rows.changes, new Date().toISOString());
    result.head = seal({
      tree_size: range.size,
      root: range.root(),
      timestamp: await headTimestamp(trx, state.head_hash),
      prev_head_hash: state.head_hash,
    });
    await trx.insertInto('heads').values(result.head).execute();
    await trx
      .updateTable('log_state')
      .set({ tree_size: range.size, last_logged_at: lastLoggedAt, head_hash: result.head.head_hash })
      .where('id', '=', 1)
      .execute();
    return result;
  });
}

/** Seals the empty log's first head once (size 0), under the same lock. */
export function initialiseLog(db: Kysely<Database>, backend: Backend, seal: HeadSealer): Promise<HeadBlock> {
  return db.transaction().execute(async (trx) => {
    const state = await lockLog(trx, backend);
    if (state.head_hash !== null) {
      return toHead(
        await trx.selectFrom('heads').selectAll().where('head_hash', '=', state.head_hash).executeTakeFirstOrThrow(),
      );
    }
    const head = seal({
      tree_size: 0,
      root: EMPTY_ROOT,
      timestamp: await headTimestamp(trx, null),
      prev_head_hash: null,
    });
    await trx.insertInto('heads').values(head).execute();
    await trx.updateTable('log_state').set({ head_hash: head.head_hash }).where('id', '=', 1).execute();
    return head;
  });
}

type Backend = 'sqlite' | 'postgres';

/**
 * The advisory-lock key of the PostgreSQL sequencer ("tseq"): one fixed number every process
 * names, distinct from the migration lock's.
 */
export const SEQUENCER_LOCK = 0x7473_6571;

/**
 * The sequencer (DESIGN §5): appends from any number of processes are serialised, and each reads
 * the tree its append extends only once it holds the lock.
 * - PostgreSQL: a transaction-scoped advisory lock on one fixed key. It is released by COMMIT or
 *   ROLLBACK, and by the server when a writer's connection dies (a killed worker cannot leave the
 *   log locked). Under READ COMMITTED the read of log_state that follows takes a fresh snapshot,
 *   so it sees the previous holder's commit.
 * - SQLite: writing the log_state row first takes the database's write lock (RESERVED), which the
 *   write transaction holds until it ends.
 */
async function lockLog(trx: Trx, backend: Backend) {
  if (backend === 'postgres') await sql`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK})`.execute(trx);
  else
    await trx
      .updateTable('log_state')
      .set({ tree_size: sql`tree_size` })
      .where('id', '=', 1)
      .execute();
  return trx.selectFrom('log_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/**
 * Heads carry second-precision RFC 3339 UTC times, as checkpoints and their readers expect. A head
 * is never dated before the one it follows: appenders on several hosts (or a clock set back) may
 * disagree by a little, and a verifier refuses a chain of heads whose time runs backwards.
 */
async function headTimestamp(trx: Trx, prevHeadHash: string | null): Promise<string> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (prevHeadHash === null) return now;
  const prev = await trx
    .selectFrom('heads')
    .select('timestamp')
    .where('head_hash', '=', prevHeadHash)
    .executeTakeFirst();
  return prev && prev.timestamp > now ? prev.timestamp : now;
}

function observedKey(date: string, correction: boolean): string {
  return `${date} ${correction}`;
}

function refOf(entry: PendingLeaf): ComponentRef | null {
  return 'observation' in entry.record
    ? entry.record.observation.component
    : 'census' in entry.record
      ? entry.record.census.component
      : null;
}

/**
 * PostgreSQL column types of the tables a daily pass fills by the thousand. Their rows go in as one
 * array per column (`INSERT … SELECT * FROM unnest($1::bigint[], …)`): a handful of parameters
 * instead of one per value, which the server parses and plans in a fraction of the time a
 * 5,000-parameter VALUES list takes.
 */
const UNNEST_COLUMNS = {
  tree_nodes: { level: 'integer', idx: 'bigint', hash: 'bytea' },
} as const;

const ROWS_PER_UNNEST = 5_000;

async function insertUnnested<T extends keyof typeof UNNEST_COLUMNS>(
  trx: Trx,
  table: T,
  rows: Database[T][],
): Promise<void> {
  const columns = Object.entries(UNNEST_COLUMNS[table]) as [keyof Database[T] & string, string][];
  for (let i = 0; i < rows.length; i += ROWS_PER_UNNEST) {
    const chunk = rows.slice(i, i + ROWS_PER_UNNEST);
    const arrays = columns.map(([name, type]) => sql`${chunk.map((row) => row[name])}::${sql.raw(type)}[]`);
    await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map(([name]) => sql.ref(name)))}) SELECT * FROM unnest(${sql.join(arrays)})`.execute(
      trx,
    );
  }
}

async function insertChunked<T extends 'tree_nodes' | 'census' | 'key_sets'>(
  trx: Trx,
  table: T,
  rows: Database[T][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    // kysely's typing of a generic table name is too wide to check here; the row type is fixed by T.
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
      .execute();
  }
}
