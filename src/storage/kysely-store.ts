import { sql, type Kysely, type Transaction } from 'kysely';
import { componentOwner, componentPurls, type ComponentRef } from '../domain/component.js';
import { observationLeafRecord, type NewObservation, type Observation } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import type { HeadBlock } from '../notary/head.js';
import { EMPTY_ROOT, leafHash, type Hash } from '../notary/hash.js';
import { encodeLeaf } from '../notary/leaf.js';
import { CompactRange, rootCoords, type NodeCoord } from '../notary/merkle.js';
import { applyMigrations, type Migration } from './migration.js';
import * as watch from './kysely-watch.js';
import type { Database } from './schema.js';
import {
  DuplicateObservationError,
  LogInvariantError,
  type AppendResult,
  type CachedAnswer,
  type HeadSealer,
  type ImportedLeaf,
  type Store,
  type StoredLeaf,
} from './store.js';

type Db = Kysely<Database> | Transaction<Database>;

/** A leaf ready to append: its observation and a way to get its exact bytes once logged_at is fixed. */
interface PendingLeaf {
  observation: NewObservation;
  logged_at: string | null;
  bytes: (loggedAt: string) => Uint8Array;
}

const ROWS_PER_INSERT = 500;

/**
 * The store's query code, shared by both adapters through kysely: the adapters differ only in the
 * dialect they hand in and the DDL of their migrations.
 */
export class KyselyStore implements Store {
  constructor(
    readonly backend: 'sqlite' | 'postgres',
    private readonly db: Kysely<Database>,
    private readonly migrations: Migration[],
    private readonly withMigrationLock: <T>(db: Kysely<Database>, run: () => Promise<T>) => Promise<T> = (_db, run) => run(),
  ) {}

  migrate(): Promise<void> {
    return this.withMigrationLock(this.db, () => applyMigrations(this.db, this.migrations));
  }

  close(): Promise<void> {
    return this.db.destroy();
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  initialiseLog(seal: HeadSealer): Promise<HeadBlock> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('log_state').set({ tree_size: sql`tree_size` }).where('id', '=', 1).execute();
      const state = await trx.selectFrom('log_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      if (state.head_hash !== null) {
        const head = await trx.selectFrom('heads').selectAll().where('head_hash', '=', state.head_hash).executeTakeFirstOrThrow();
        return toHead(head);
      }
      const head = seal({ tree_size: 0, root: EMPTY_ROOT, timestamp: headTimestamp(), prev_head_hash: null });
      await trx.insertInto('heads').values(head).execute();
      await trx.updateTable('log_state').set({ head_hash: head.head_hash }).where('id', '=', 1).execute();
      return head;
    });
  }

  appendObservations(observations: NewObservation[], seal: HeadSealer): Promise<AppendResult> {
    return this.append(
      observations.map((observation) => ({
        observation,
        logged_at: null,
        bytes: (loggedAt) => encodeLeaf(observationLeafRecord(observation, loggedAt)),
      })),
      seal,
    );
  }

  importLeaves(leaves: ImportedLeaf[], seal: HeadSealer): Promise<AppendResult> {
    return this.append(
      leaves.map((leaf) => ({ observation: leaf.observation, logged_at: leaf.logged_at, bytes: () => leaf.bytes })),
      seal,
    );
  }

  private append(pending: PendingLeaf[], seal: HeadSealer): Promise<AppendResult> {
    if (pending.length === 0) return Promise.reject(new LogInvariantError('nothing to append'));
    return this.db.transaction().execute(async (trx) => {
      // The sequencer: writing the single log_state row first takes the write lock on both
      // backends (a row lock on PostgreSQL, the database's RESERVED lock on SQLite), so appends
      // from any number of processes are serialised and each sees the tree its append extends.
      await trx.updateTable('log_state').set({ tree_size: sql`tree_size` }).where('id', '=', 1).execute();
      const state = await trx.selectFrom('log_state').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      const startSize = Number(state.tree_size);
      const range = new CompactRange(startSize, await readNodeHashes(trx, rootCoords(startSize)));
      let lastLoggedAt = state.last_logged_at;
      const components = new Map<string, number>();
      const seenDates = new Set<string>();
      const leafRows: Database['leaves'][] = [];
      const nodeRows: Database['tree_nodes'][] = [];
      const observationRows: Database['observations'][] = [];
      const appended: Observation[] = [];

      for (const entry of pending) {
        const o = entry.observation;
        const componentId = await this.componentId(trx, o.component, components);
        const dateKey = `${componentId} ${o.observation_date}`;
        const correction = o.corrects !== null;
        if (seenDates.has(`${dateKey} ${correction}`) || (await hasObservationOn(trx, componentId, o.observation_date, correction))) {
          throw new DuplicateObservationError(o.component, o.observation_date, correction);
        }
        seenDates.add(`${dateKey} ${correction}`);
        if (o.corrects !== null) await assertCorrectable(trx, componentId, o.corrects, appended);
        const now = new Date().toISOString();
        const loggedAt = entry.logged_at ?? (lastLoggedAt !== null && lastLoggedAt > now ? lastLoggedAt : now);
        if (lastLoggedAt !== null && loggedAt < lastLoggedAt) {
          throw new LogInvariantError(`leaf ${range.size} was logged at ${loggedAt}, before leaf ${range.size - 1} (${lastLoggedAt})`);
        }
        lastLoggedAt = loggedAt;
        const bytes = entry.bytes(loggedAt);
        const index = range.size;
        const hash = leafHash(bytes);
        for (const { coord, hash: nodeHash } of range.append(hash).completed) {
          if (coord.level > 0) nodeRows.push({ level: coord.level, idx: coord.index, hash: nodeHash });
        }
        leafRows.push({ idx: index, kind: 'observation', bytes, hash, logged_at: loggedAt });
        observationRows.push({
          leaf_index: index,
          component_id: componentId,
          observed_at: o.observed_at,
          observation_date: o.observation_date,
          state: o.state,
          source: o.source,
          evidence: JSON.stringify(o.evidence),
          method: o.method,
          corrects: o.corrects,
        });
        appended.push({ ...o, leaf_index: index });
      }

      await insertChunked(trx, 'leaves', leafRows);
      await insertChunked(trx, 'tree_nodes', nodeRows);
      await insertChunked(trx, 'observations', observationRows);
      const head = seal({
        tree_size: range.size,
        root: range.root(),
        timestamp: headTimestamp(),
        prev_head_hash: state.head_hash,
      });
      await trx.insertInto('heads').values(head).execute();
      await trx
        .updateTable('log_state')
        .set({ tree_size: range.size, last_logged_at: lastLoggedAt, head_hash: head.head_hash })
        .where('id', '=', 1)
        .execute();
      return { observations: appended, head };
    });
  }

  private async componentId(trx: Db, ref: ComponentRef, cache: Map<string, number>): Promise<number> {
    const key = `${ref.kind}:${ref.id}`;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    await trx
      .insertInto('components')
      .values({ kind: ref.kind, native_id: ref.id, owner: componentOwner(ref), purl: componentPurls(ref)[1] })
      .onConflict((oc) => oc.columns(['kind', 'native_id']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('components')
      .select('id')
      .where('kind', '=', ref.kind)
      .where('native_id', '=', ref.id)
      .executeTakeFirstOrThrow();
    cache.set(key, Number(row.id));
    return Number(row.id);
  }

  async observationsOf(ref: ComponentRef): Promise<Observation[]> {
    const rows = await this.db
      .selectFrom('observations')
      .innerJoin('components', 'components.id', 'observations.component_id')
      .selectAll('observations')
      .where('components.kind', '=', ref.kind)
      .where('components.native_id', '=', ref.id)
      .orderBy('observations.leaf_index')
      .execute();
    return rows.map((row) => toObservation(ref, row));
  }

  async componentVersion(ref: ComponentRef): Promise<number | null> {
    // A raw template: this runs on every entity read, and kysely's builder costs more than the
    // indexed lookup itself. Plain SQL that both backends read the same way.
    const { rows } = await sql<{ version: number | null }>`
      SELECT max(leaf_index) AS version FROM observations
      WHERE component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id})`.execute(this.db);
    const version = rows[0]?.version;
    return version === null || version === undefined ? null : Number(version);
  }

  async observationsUnderOwner(kind: ComponentRef['kind'], owner: string) {
    const rows = await this.db
      .selectFrom('observations')
      .innerJoin('components', 'components.id', 'observations.component_id')
      .selectAll('observations')
      .select(['components.native_id'])
      .where('components.kind', '=', kind)
      .where('components.owner', '=', owner)
      .orderBy('components.native_id')
      .orderBy('observations.leaf_index')
      .execute();
    const byComponent = new Map<string, { component: ComponentRef; observations: Observation[] }>();
    for (const row of rows) {
      let group = byComponent.get(row.native_id);
      if (!group) {
        group = { component: { kind, id: row.native_id }, observations: [] };
        byComponent.set(row.native_id, group);
      }
      group.observations.push(toObservation(group.component, row));
    }
    return [...byComponent.values()];
  }

  watchAdd(refs: ComponentRef[], now: string) {
    return watch.watchAdd(this.db, refs, now);
  }

  watchRemove(ref: ComponentRef) {
    return watch.watchRemove(this.db, ref);
  }

  watchList() {
    return watch.watchList(this.db);
  }

  claimDue(now: string, limit: number, leaseUntil: string) {
    return watch.claimDue(this.db, this.backend, now, limit, leaseUntil);
  }

  releaseWatch(ref: ComponentRef, nextDue: string) {
    return watch.releaseWatch(this.db, ref, nextDue);
  }

  cacheGet(url: string) {
    return watch.cacheGet(this.db, url);
  }

  cacheSet(url: string, entry: CachedAnswer) {
    return watch.cacheSet(this.db, url, entry);
  }

  async treeSize(): Promise<number> {
    const row = await this.db.selectFrom('log_state').select('tree_size').where('id', '=', 1).executeTakeFirstOrThrow();
    return Number(row.tree_size);
  }

  async latestHead(): Promise<HeadBlock | null> {
    const row = await this.db.selectFrom('heads').selectAll().orderBy('tree_size', 'desc').limit(1).executeTakeFirst();
    return row ? toHead(row) : null;
  }

  async heads(fromSize: number, limit: number): Promise<HeadBlock[]> {
    const rows = await this.db
      .selectFrom('heads')
      .selectAll()
      .where('tree_size', '>=', fromSize)
      .orderBy('tree_size')
      .limit(limit)
      .execute();
    return rows.map(toHead);
  }

  async leaf(index: number): Promise<StoredLeaf | null> {
    const row = await this.db.selectFrom('leaves').selectAll().where('idx', '=', index).executeTakeFirst();
    return row ? toLeaf(row) : null;
  }

  async leaves(from: number, limit: number): Promise<StoredLeaf[]> {
    const rows = await this.db
      .selectFrom('leaves')
      .selectAll()
      .where('idx', '>=', from)
      .where('idx', '<', from + limit)
      .orderBy('idx')
      .execute();
    return rows.map(toLeaf);
  }

  nodeHashes(coords: NodeCoord[]): Promise<Hash[]> {
    return readNodeHashes(this.db, coords);
  }
}

/** Heads carry second-precision RFC 3339 UTC times, as checkpoints and their readers expect. */
function headTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function readNodeHashes(db: Db, coords: NodeCoord[]): Promise<Hash[]> {
  if (coords.length === 0) return [];
  const leafIdx = coords.filter((c) => c.level === 0).map((c) => c.index);
  const inner = coords.filter((c) => c.level > 0);
  const found = new Map<string, Hash>();
  if (leafIdx.length > 0) {
    for (const row of await db.selectFrom('leaves').select(['idx', 'hash']).where('idx', 'in', leafIdx).execute()) {
      found.set(`0/${Number(row.idx)}`, new Uint8Array(row.hash));
    }
  }
  if (inner.length > 0) {
    const rows = await db
      .selectFrom('tree_nodes')
      .select(['level', 'idx', 'hash'])
      .where((eb) => eb.or(inner.map((c) => eb.and([eb('level', '=', c.level), eb('idx', '=', c.index)]))))
      .execute();
    for (const row of rows) found.set(`${row.level}/${Number(row.idx)}`, new Uint8Array(row.hash));
  }
  return coords.map((c) => {
    const hash = found.get(`${c.level}/${c.index}`);
    if (!hash) throw new LogInvariantError(`the tree has no stored node at level ${c.level}, index ${c.index}`);
    return hash;
  });
}

/** At most one scheduled observation and one correction per component per date. */
async function hasObservationOn(trx: Db, componentId: number, date: string, correction: boolean): Promise<boolean> {
  const row = await trx
    .selectFrom('observations')
    .select('leaf_index')
    .where('component_id', '=', componentId)
    .where('observation_date', '=', date)
    .where('corrects', correction ? 'is not' : 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

async function assertCorrectable(trx: Db, componentId: number, corrects: number, pending: Observation[]): Promise<void> {
  const inBatch = pending.some((o) => o.leaf_index === corrects);
  const row = inBatch
    ? { component_id: componentId }
    : await trx.selectFrom('observations').select('component_id').where('leaf_index', '=', corrects).executeTakeFirst();
  if (!row || Number(row.component_id) !== componentId) {
    throw new LogInvariantError(`a correction must point at an earlier observation of the same component; leaf ${corrects} is not one`);
  }
}

async function insertChunked<T extends 'leaves' | 'tree_nodes' | 'observations'>(trx: Db, table: T, rows: Database[T][]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    // kysely's typing of a generic table name is too wide to check here; the row type is fixed by T.
    await trx.insertInto(table).values(rows.slice(i, i + ROWS_PER_INSERT) as never).execute();
  }
}

function toObservation(component: ComponentRef, row: Database['observations']): Observation {
  return {
    component,
    observed_at: row.observed_at,
    observation_date: row.observation_date,
    state: row.state as State,
    source: row.source,
    evidence: JSON.parse(row.evidence),
    method: row.method,
    corrects: row.corrects === null ? null : Number(row.corrects),
    leaf_index: Number(row.leaf_index),
  };
}

function toHead(row: Database['heads']): HeadBlock {
  return { ...row, tree_size: Number(row.tree_size) };
}

function toLeaf(row: Database['leaves']): StoredLeaf {
  return { index: Number(row.idx), bytes: new Uint8Array(row.bytes), hash: new Uint8Array(row.hash), logged_at: row.logged_at };
}
