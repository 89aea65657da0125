import { sql, type Kysely, type Transaction } from 'kysely';
import type { Census } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { Observation, SeriesEntry } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import type { Hash } from '../notary/hash.js';
import type { HeadBlock } from '../notary/head.js';
import type { NodeCoord } from '../notary/merkle.js';
import type { Database } from './schema.js';
import { LogInvariantError, type SeriesAt, type StoredLeaf } from './store.js';

/** Row → domain conversions and the node-hash read, shared by the store's reads and its appends. */

/**
 * Starts the text of a query run on every entity read: on PostgreSQL it becomes a named (prepared)
 * statement, parsed and planned once per connection; to SQLite it is a comment. Only fixed texts
 * take it (never a variable IN list), so the statements a connection holds stay few.
 */
export const PREPARED = '/* prepared */ ';

type Db = Kysely<Database> | Transaction<Database>;

export async function readNodeHashes(db: Db, coords: NodeCoord[]): Promise<Hash[]> {
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

export function toObservation(component: ComponentRef, row: Database['observations']): Observation {
  return {
    component,
    observed_at: row.observed_at,
    observation_date: row.observation_date,
    state: row.state as State,
    source: row.source,
    evidence: JSON.parse(row.evidence) as Observation['evidence'],
    method: row.method,
    corrects: row.corrects === null ? null : Number(row.corrects),
    leaf_index: Number(row.leaf_index),
  };
}

export function toCensus(component: ComponentRef, row: Database['census']): Census {
  return {
    component,
    read_at: row.read_at,
    read_date: row.read_date,
    dependents: row.dependents === null ? null : Number(row.dependents),
    source: row.source,
    evidence: JSON.parse(row.evidence) as Observation['evidence'],
    method: row.method,
    leaf_index: Number(row.leaf_index),
  };
}

export function toHead(row: Database['heads']): HeadBlock {
  return { ...row, tree_size: Number(row.tree_size) };
}

export function toLeaf(row: Database['leaves']): StoredLeaf {
  return {
    index: Number(row.idx),
    bytes: new Uint8Array(row.bytes),
    hash: new Uint8Array(row.hash),
    logged_at: row.logged_at,
  };
}

/**
 * Native ids grouped by kind: lookups of many components ask `kind = ? AND native_id IN (…)` per
 * kind, which both backends answer from the (kind, native_id) index (an OR of pairs makes them scan).
 */
export function nativeIdsByKind(refs: Iterable<ComponentRef>): Map<ComponentRef['kind'], string[]> {
  const byKind = new Map<ComponentRef['kind'], string[]>();
  for (const ref of refs) {
    const ids = byKind.get(ref.kind);
    if (ids) ids.push(ref.id);
    else byKind.set(ref.kind, [ref.id]);
  }
  return byKind;
}

/**
 * One component's series and its reading for `date` in one round trip. The series is the four
 * columns the covering index `observations_series` holds, so it never visits the table (a
 * component's readings lie on as many pages as it has dates, one appended a day); the reading is
 * picked from those rows and only it is read whole, by its primary key. Raw SQL: kysely's builder
 * costs more than this indexed read on a hot route.
 */
export async function readSeriesAt(db: Db, ref: ComponentRef, date: string): Promise<SeriesAt> {
  const { rows } = await sql<SeriesRow>`
    ${sql.raw(PREPARED)}WITH s AS (
      SELECT leaf_index, observation_date, state, corrects FROM observations
      WHERE component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id}))
    SELECT leaf_index, observation_date, state, corrects,
      NULL AS observed_at, NULL AS source, NULL AS evidence, NULL AS method
    FROM s
    UNION ALL
    SELECT leaf_index, observation_date, state, corrects, observed_at, source, evidence, method FROM observations
    WHERE leaf_index = (
      SELECT leaf_index FROM s WHERE observation_date <= ${date}
      ORDER BY observation_date DESC, leaf_index DESC LIMIT 1)`.execute(db);
  return seriesAtOf(ref, rows);
}

/** A series row, or (with its evidence) the reading picked for the date. */
type SeriesRow = Pick<Database['observations'], 'leaf_index' | 'observation_date' | 'state' | 'corrects'> & {
  observed_at: string | null;
  source: string | null;
  evidence: string | null;
  method: string | null;
};

function seriesAtOf(ref: ComponentRef, rows: SeriesRow[]): SeriesAt {
  const series: SeriesEntry[] = [];
  let reading: Observation | null = null;
  let ordered = true;
  for (const r of rows) {
    // The reading comes as the only row with its evidence (observed_at is never null in the table).
    if (r.observed_at !== null) {
      reading = toObservation(ref, r as Database['observations']);
      continue;
    }
    const entry: SeriesEntry = {
      leaf_index: Number(r.leaf_index),
      observation_date: r.observation_date,
      state: r.state as State,
      corrects: r.corrects === null ? null : Number(r.corrects),
    };
    if (series.length > 0 && series.at(-1)!.leaf_index > entry.leaf_index) ordered = false;
    series.push(entry);
  }
  // The index gives leaf order; a plan that does not (a bitmap scan, a join) is put back in it.
  if (!ordered) series.sort((a, b) => a.leaf_index - b.leaf_index);
  return { series, reading };
}

/**
 * seriesAt for every component of `kind` under an owner, in one query, ordered by id: the series
 * from the covering index and, per component, the one reading picked from those rows, read whole.
 * An owner's answer reads a reading per repository, not the evidence of every date of each.
 */
export async function readSeriesUnderOwner(
  db: Db,
  kind: ComponentRef['kind'],
  owner: string,
  date: string,
): Promise<({ component: ComponentRef } & SeriesAt)[]> {
  const { rows } = await sql<{ native_id: string } & SeriesRow>`
    WITH s AS (
      SELECT c.native_id, o.leaf_index, o.observation_date, o.state, o.corrects
      FROM components c JOIN observations o ON o.component_id = c.id
      WHERE c.kind = ${kind} AND c.owner = ${owner}),
    picked AS (
      SELECT leaf_index FROM (
        SELECT leaf_index, row_number() OVER (
          PARTITION BY native_id ORDER BY observation_date DESC, leaf_index DESC) AS rank
        FROM s WHERE observation_date <= ${date}) AS ranked
      WHERE rank = 1)
    SELECT native_id, leaf_index, observation_date, state, corrects,
      NULL AS observed_at, NULL AS source, NULL AS evidence, NULL AS method
    FROM s
    UNION ALL
    SELECT c.native_id, o.leaf_index, o.observation_date, o.state, o.corrects,
      o.observed_at, o.source, o.evidence, o.method
    FROM observations o JOIN components c ON c.id = o.component_id
    WHERE o.leaf_index IN (SELECT leaf_index FROM picked)`.execute(db);
  const byComponent = new Map<string, SeriesRow[]>();
  for (const row of rows) {
    const list = byComponent.get(row.native_id);
    if (list) list.push(row);
    else byComponent.set(row.native_id, [row]);
  }
  return [...byComponent.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((id) => {
      const component = { kind, id };
      return { component, ...seriesAtOf(component, byComponent.get(id)!) };
    });
}

/** The one whole observation an answer rests on: a primary-key read. */
export async function readObservationAt(db: Db, ref: ComponentRef, leafIndex: number): Promise<Observation | null> {
  const { rows } = await sql<Database['observations']>`
    ${sql.raw(PREPARED)}SELECT * FROM observations
    WHERE leaf_index = ${leafIndex}
      AND component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id})`.execute(db);
  return rows[0] ? toObservation(ref, rows[0]) : null;
}

/**
 * The bytes of leaves [from, from+limit), one column and not copied: a full audit reads every leaf,
 * and the stored hashes, dates and copies of the rest of the row would cost it as much as the hashing.
 */
export async function readLeafBytes(db: Db, from: number, limit: number): Promise<Uint8Array[]> {
  const { rows } = await sql<{ bytes: Uint8Array }>`
    SELECT bytes FROM leaves WHERE idx >= ${from} AND idx < ${from + limit} ORDER BY idx`.execute(db);
  return rows.map((r) => r.bytes);
}

/**
 * The latest leaf of a component's observations. A raw template: this runs on every entity read,
 * and kysely's builder costs more than the indexed lookup itself. Plain SQL both backends read alike.
 */
export async function readComponentVersion(db: Db, ref: ComponentRef): Promise<number | null> {
  const { rows } = await sql<{ version: number | null }>`
    ${sql.raw(PREPARED)}SELECT max(leaf_index) AS version FROM observations
    WHERE component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id})`.execute(db);
  const version = rows[0]?.version;
  return version === null || version === undefined ? null : Number(version);
}

/** The latest leaf of a component's census reads. */
export async function readCensusVersion(db: Db, ref: ComponentRef): Promise<number | null> {
  const { rows } = await sql<{ version: number | null }>`
    SELECT max(leaf_index) AS version FROM census
    WHERE component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id})`.execute(db);
  const version = rows[0]?.version;
  return version === null || version === undefined ? null : Number(version);
}

/**
 * Held components (the record holds a reading of them) whose lower-cased name or id begins with
 * `prefix`: two range reads of the search indexes, each stopping at `limit` rows, so a short
 * prefix costs no more than a long one. A name only queued (discovered, never shown public) is
 * never listed. Ordered by name, kind and id.
 */
export async function readHeldByPrefix(db: Db, prefix: string, limit: number): Promise<ComponentRef[]> {
  const lo = prefix.toLowerCase();
  // The first string after every one that starts with the prefix, in byte order.
  const hi = `${lo}\u{10FFFF}`;
  const { rows } = await sql<{ kind: string; native_id: string; search_name: string }>`
    SELECT kind, native_id, search_name FROM (
      SELECT kind, native_id, search_name FROM components c
      WHERE c.search_name >= ${lo} AND c.search_name < ${hi}
        AND EXISTS (SELECT 1 FROM observations o WHERE o.component_id = c.id)
      ORDER BY c.search_name LIMIT ${limit}) AS by_name
    UNION
    SELECT kind, native_id, search_name FROM (
      SELECT kind, native_id, search_name FROM components c
      WHERE c.search_id >= ${lo} AND c.search_id < ${hi}
        AND EXISTS (SELECT 1 FROM observations o WHERE o.component_id = c.id)
      ORDER BY c.search_id LIMIT ${limit}) AS by_id
    ORDER BY search_name, kind, native_id
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ kind: r.kind as ComponentRef['kind'], id: r.native_id }));
}
