import { sql, type Kysely, type Transaction } from 'kysely';
import type { ComponentKind, ComponentRef } from '../domain/component.js';
import type { Observation, SeriesEntry } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import { decodeLeaf } from '../notary/leaf.js';
import { readBlocks } from './kysely-blocks.js';
import { nativeIdsByKind } from '../domain/component.js';
import { blockOf } from './leaf-block.js';
import type { Database } from './schema.js';
import { decodeEntries, encodeEntries } from './series-entries.js';
import { LogInvariantError } from './store-errors.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface SeriesRow {
  entries: Uint8Array;
  corrections: Uint8Array | null;
}

const IDS_PER_QUERY = 500;

/** The series rows of `componentIds` that the store holds. */
const ROWS_PER_UNNEST = 5_000;

export async function readSeriesRows(
  db: Db,
  componentIds: Iterable<number>,
  backend: 'sqlite' | 'postgres' = 'sqlite',
): Promise<Map<number, SeriesRow>> {
  const ids = [...new Set(componentIds)];
  const rows = new Map<number, SeriesRow>();
  // PostgreSQL takes the ids as one array (a batch is one statement), each probed on the primary
  // key: a LATERAL subquery with LIMIT 1, which the planner cannot turn into a scan of every series
  // row (`= ANY` of 5,000 ids was planned as one: 30 ms against 3). SQLite, in process, in lists.
  const step = backend === 'postgres' ? ROWS_PER_UNNEST : IDS_PER_QUERY;
  for (let i = 0; i < ids.length; i += step) {
    const some = ids.slice(i, i + step);
    for (const row of backend === 'postgres'
      ? (
          await sql<{ component_id: number; entries: Uint8Array; corrections: Uint8Array | null }>`
            SELECT i.component_id, s.entries, s.corrections FROM unnest(${some}::int[]) AS i(component_id)
            CROSS JOIN LATERAL (SELECT entries, corrections FROM series WHERE component_id = i.component_id LIMIT 1) s`.execute(
            db,
          )
        ).rows
      : await db
          .selectFrom('series')
          .select(['component_id', 'entries', 'corrections'])
          .where('component_id', 'in', some)
          .execute()) {
      rows.set(Number(row.component_id), { entries: row.entries, corrections: row.corrections });
    }
  }
  return rows;
}

const ROWS_PER_INSERT = 300;

/** Writes whole series rows, replacing the ones held. */
export async function writeSeriesRows(
  trx: Transaction<Database>,
  backend: 'sqlite' | 'postgres',
  rows: Database['series'][],
): Promise<void> {
  if (backend === 'postgres') {
    // One array per column: a handful of parameters for thousands of rows (see insertUnnested).
    for (let i = 0; i < rows.length; i += ROWS_PER_UNNEST) {
      const chunk = rows.slice(i, i + ROWS_PER_UNNEST);
      await sql`INSERT INTO series (component_id, entries, corrections)
        SELECT * FROM unnest(${chunk.map((r) => r.component_id)}::integer[], ${chunk.map((r) => r.entries)}::bytea[],
          ${chunk.map((r) => r.corrections)}::bytea[])
        ON CONFLICT (component_id) DO UPDATE SET entries = excluded.entries, corrections = excluded.corrections`.execute(
        trx,
      );
    }
    return;
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('series')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) =>
        oc
          .column('component_id')
          .doUpdateSet({ entries: sql`excluded.entries`, corrections: sql`excluded.corrections` }),
      )
      .execute();
  }
}

/**
 * The observation a leaf records, read from the leaf itself: the log's own bytes are the one copy
 * of its source, evidence and method (DESIGN §8b). `ref`, when given, must be the leaf's component.
 */
export function observationFromLeaf(bytes: Uint8Array, leafIndex: number, ref?: ComponentRef): Observation {
  const r = decodeLeaf(bytes) as Record<string, unknown>;
  const component = ref ?? { kind: r['kind'] as ComponentKind, id: String(r['id']) };
  if (r['kind'] !== component.kind || r['id'] !== component.id || typeof r['state'] !== 'string')
    throw new LogInvariantError(`leaf ${leafIndex} is not an observation of ${component.kind}:${component.id}`);
  return {
    component,
    observed_at: r['observed_at'] as string,
    observation_date: r['observation_date'] as string,
    state: r['state'] as State,
    source: r['source'] as string,
    evidence: r['evidence'] as Observation['evidence'],
    method: r['method'] as string,
    corrects: typeof r['corrects'] === 'number' ? r['corrects'] : null,
    leaf_index: leafIndex,
  };
}

/**
 * The series entries of each of `refs` the store holds, keyed `kind:id`, `perQuery` names a
 * statement: the (kind, native_id) index, then the series row by primary key.
 */
export async function readSeriesOf(db: Db, refs: Iterable<ComponentRef>, perQuery = IDS_PER_QUERY) {
  const series = new Map<string, Uint8Array>();
  for (const [kind, all] of nativeIdsByKind(refs)) {
    const ids = [...new Set(all)];
    for (let i = 0; i < ids.length; i += perQuery) {
      const rows = await db
        .selectFrom('components')
        .innerJoin('series', 'series.component_id', 'components.id')
        .select(['components.native_id', 'series.entries'])
        .where('components.kind', '=', kind)
        .where('components.native_id', 'in', ids.slice(i, i + perQuery))
        .execute();
      for (const row of rows) series.set(`${kind}:${row.native_id}`, row.entries);
    }
  }
  return series;
}

/**
 * Every reading of each component whole, in leaf order, keyed `kind:id`: the leaves its series row
 * lists, read from their blocks (each block read and decoded once, however many readings it holds).
 */
export async function readObservationsOf(db: Db, refs: ComponentRef[]): Promise<Map<string, Observation[]>> {
  const held = new Map<string, Observation[]>();
  const leaves = [...(await readSeriesOf(db, refs))].map(([key, entries]) => {
    const at = key.indexOf(':');
    return {
      key,
      ref: { kind: key.slice(0, at) as ComponentKind, id: key.slice(at + 1) },
      leaves: decodeEntries(entries, null).map((e) => e.leaf_index),
    };
  });
  const blocks = await readBlocks(
    db,
    leaves.flatMap((l) => l.leaves.map((leaf) => blockOf(leaf).block)),
  );
  for (const { key, ref, leaves: list } of leaves) {
    held.set(
      key,
      list.map((leafIndex) => {
        const { block, slot } = blockOf(leafIndex);
        const leaf = blocks.get(block)?.[slot];
        if (!leaf) throw new LogInvariantError(`the log has no leaf ${leafIndex}`);
        return observationFromLeaf(leaf.bytes, leafIndex, ref);
      }),
    );
  }
  return held;
}

/** A component's series row with `added` readings after the ones it held (`held`, or none). */
export function extendedSeriesRow(
  componentId: number,
  held: SeriesRow | undefined | null,
  added: SeriesEntry[],
): Database['series'] {
  const more = encodeEntries(added);
  const corrections = [held?.corrections, more.corrections].filter((c): c is Uint8Array => !!c);
  return {
    component_id: componentId,
    entries: held ? Buffer.concat([held.entries, more.entries]) : more.entries,
    corrections: corrections.length > 0 ? Buffer.concat(corrections) : null,
  };
}
