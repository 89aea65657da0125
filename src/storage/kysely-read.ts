import { sql, type Kysely, type Transaction } from 'kysely';
import { dayNumber, isCalendarDate } from '../domain/calendar.js';
import type { Census } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { Observation } from '../domain/observation.js';
import type { HeadBlock } from '../notary/head.js';
import { observationFromLeaf } from './kysely-series.js';
import { blockOf, decodeBlock, decodeBlockBytes, LEAVES_PER_BLOCK } from './leaf-block.js';
import type { Database } from './schema.js';
import { decodeEntries, ENTRY_BYTES, latestLeaf, pickReading } from './series-entries.js';
import type { SeriesAt } from './store.js';
import { LogInvariantError } from './store-errors.js';

/** The store's reads of series and the readings they rest on, and row → domain conversions. */

/**
 * Starts the text of a query run on every entity read: on PostgreSQL it becomes a named (prepared)
 * statement, parsed and planned once per connection; to SQLite it is a comment. Only fixed texts
 * take it (never a variable IN list), so the statements a connection holds stay few.
 */
export const PREPARED = '/* prepared */ ';

type Db = Kysely<Database> | Transaction<Database>;

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

/**
 * One component's series and its reading for `date` in one query: the component's series row (a
 * primary-key read) and the block holding the reading SQL picks from it (tended_series_pick,
 * migration 11), another primary-key read. Raw SQL: kysely's builder costs more than these
 * indexed reads on a hot route.
 */
export async function readSeriesAt(db: Db, ref: ComponentRef, date: string): Promise<SeriesAt> {
  const { rows } = await sql<SeriesBlockRow>`
    ${sql.raw(PREPARED)}SELECT s.entries, s.corrections, b.bytes
    FROM components c JOIN series s ON s.component_id = c.id
    LEFT JOIN leaf_blocks b ON b.block = tended_series_pick(s.entries, ${pickDay(date)}) / ${sql.raw(String(LEAVES_PER_BLOCK))}
    WHERE c.kind = ${ref.kind} AND c.native_id = ${ref.id}`.execute(db);
  return rows[0] ? seriesAtOf(ref, rows[0], date) : { series: [], reading: null };
}

/** A series row, with the block its picked reading lies in (null when nothing is dated by then). */
interface SeriesBlockRow {
  entries: Uint8Array;
  corrections: Uint8Array | null;
  bytes: Uint8Array | null;
}

/** The day number tended_series_pick compares with: any date, clamped to what a series can hold. */
function pickDay(date: string): number {
  return isCalendarDate(date) ? Math.min(Math.max(dayNumber(date), -1), 0xffff) : -1;
}

function seriesAtOf(ref: ComponentRef, row: SeriesBlockRow, date: string): SeriesAt {
  const series = decodeEntries(row.entries, row.corrections);
  const picked = pickReading(series, date);
  if (picked === null) return { series, reading: null };
  if (row.bytes === null) throw new LogInvariantError(`the log has no block for leaf ${picked}`);
  const leaf = decodeBlock(row.bytes)[blockOf(picked).slot];
  if (!leaf) throw new LogInvariantError(`the log has no leaf ${picked}`);
  return { series, reading: observationFromLeaf(leaf.bytes, picked, ref) };
}

/**
 * seriesAt for every component of `kind` under an owner, in one query, ordered by id: each
 * component's series row and the block of the reading picked from it.
 */
export async function readSeriesUnderOwner(
  db: Db,
  kind: ComponentRef['kind'],
  owner: string,
  date: string,
): Promise<({ component: ComponentRef } & SeriesAt)[]> {
  const { rows } = await sql<{ native_id: string } & SeriesBlockRow>`
    SELECT c.native_id, s.entries, s.corrections, b.bytes
    FROM components c JOIN series s ON s.component_id = c.id
    LEFT JOIN leaf_blocks b ON b.block = tended_series_pick(s.entries, ${pickDay(date)}) / ${sql.raw(String(LEAVES_PER_BLOCK))}
    WHERE c.kind = ${kind} AND c.owner = ${owner}`.execute(db);
  return rows
    .sort((a, b) => (a.native_id < b.native_id ? -1 : a.native_id > b.native_id ? 1 : 0))
    .map((row) => {
      const component = { kind, id: row.native_id };
      return { component, ...seriesAtOf(component, row, date) };
    });
}

/** The one whole observation an answer rests on: the component's series row and the leaf's block. */
export async function readObservationAt(db: Db, ref: ComponentRef, leafIndex: number): Promise<Observation | null> {
  const { block, slot } = blockOf(leafIndex);
  const { rows } = await sql<SeriesBlockRow>`
    ${sql.raw(PREPARED)}SELECT s.entries, s.corrections, b.bytes
    FROM components c JOIN series s ON s.component_id = c.id
    LEFT JOIN leaf_blocks b ON b.block = ${block}
    WHERE c.kind = ${ref.kind} AND c.native_id = ${ref.id}`.execute(db);
  const row = rows[0];
  if (!row || row.bytes === null) return null;
  if (!decodeEntries(row.entries, null).some((e) => e.leaf_index === leafIndex)) return null;
  const leaf = decodeBlock(row.bytes)[slot];
  return leaf ? observationFromLeaf(leaf.bytes, leafIndex, ref) : null;
}

/** The exact bytes of leaves [from, from+limit): what an audit hashes. */
export async function readLeafBytes(db: Db, from: number, limit: number): Promise<Uint8Array[]> {
  if (limit <= 0) return [];
  const first = blockOf(from).block;
  const rows = await db
    .selectFrom('leaf_blocks')
    .select(['block', 'bytes'])
    .where('block', '>=', first)
    .where('block', '<=', blockOf(from + limit - 1).block)
    .orderBy('block')
    .execute();
  const out: Uint8Array[] = [];
  for (const row of rows) {
    const leaves = decodeBlockBytes(row.bytes);
    const start = Number(row.block) * LEAVES_PER_BLOCK;
    for (let slot = Math.max(0, from - start); slot < leaves.length && start + slot < from + limit; slot++) {
      // A gap would shift every leaf after it to the wrong index: the blocks must follow each other.
      if (start + slot !== from + out.length) throw new LogInvariantError(`the log has no leaf ${from + out.length}`);
      out.push(leaves[slot]!);
    }
  }
  return out;
}

/**
 * The latest leaf of a component's observations: the last entry of its series row. A raw template:
 * this runs on every entity read, and kysely's builder costs more than the lookup itself.
 */
export async function readComponentVersion(db: Db, ref: ComponentRef): Promise<number | null> {
  const { rows } = await sql<{ last: Uint8Array }>`
    ${sql.raw(PREPARED)}${sql.raw(COMPONENT_VERSION_SELECT)}
    WHERE component_id = (SELECT id FROM components WHERE kind = ${ref.kind} AND native_id = ${ref.id})`.execute(db);
  return rows[0] ? latestLeaf(rows[0].last) : null;
}

/** The last entry of a series row: its latest leaf (the same text in both backends' SQL). */
export const COMPONENT_VERSION_SELECT = `SELECT substr(entries, length(entries) - ${ENTRY_BYTES - 1}) AS last FROM series`;

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
        AND EXISTS (SELECT 1 FROM series s WHERE s.component_id = c.id)
      ORDER BY c.search_name LIMIT ${limit}) AS by_name
    UNION
    SELECT kind, native_id, search_name FROM (
      SELECT kind, native_id, search_name FROM components c
      WHERE c.search_id >= ${lo} AND c.search_id < ${hi}
        AND EXISTS (SELECT 1 FROM series s WHERE s.component_id = c.id)
      ORDER BY c.search_id LIMIT ${limit}) AS by_id
    ORDER BY search_name, kind, native_id
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ kind: r.kind as ComponentRef['kind'], id: r.native_id }));
}
