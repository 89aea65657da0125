import { sql, type Kysely, type Transaction } from 'kysely';
import type { SeriesEntry } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import { SEQUENCER_LOCK } from './kysely-append.js';
import { writeBlocks } from './kysely-blocks.js';
import { extendedSeriesRow, readSeriesRows, writeSeriesRows } from './kysely-series.js';
import { LEAVES_PER_BLOCK } from './leaf-block.js';
import type { Database } from './schema.js';
import { encodeEntries } from './series-entries.js';

/**
 * Migration 11: from a row per leaf and a row per observation (with its evidence copied out of the
 * leaf) to blocks of leaves and a series row per component (DESIGN §8b). The leaves' bytes move
 * unchanged, so every leaf hash, head, proof and answer stays what it was.
 *
 * The old tables stay readable until the last step, so the previous version can go on serving
 * reads while this runs. Two resumable passes, each step its own transaction:
 *   1. whole blocks, in leaf order (resumes after the highest block written);
 *   2. series rows, in component order, from the observations below a leaf fixed when the pass
 *      first starts (resumes after the highest component written).
 * Then one transaction, holding the sequencer's lock, converts what was appended meanwhile (the
 * last, partial block and the readings past that leaf) and drops the old tables.
 */
const BLOCKS_PER_STEP = 2_048;
const COMPONENTS_PER_STEP = 20_000;

type Db = Kysely<Database>;
type Trx = Transaction<Database>;

/** What the conversion reads of the old layout; these tables no longer exist once it is done. */
interface OldObservation {
  component_id: number | string;
  leaf_index: number | string;
  observation_date: string;
  state: string;
  corrects: number | string | null;
}

export function convertLayout(backend: 'sqlite' | 'postgres') {
  return async (db: Db): Promise<void> => {
    await convertBlocks(db);
    await convertSeries(db, backend);
  };
}

async function treeSize(db: Db | Trx): Promise<number> {
  const { rows } = await sql<{ tree_size: number | string }>`SELECT tree_size FROM log_state WHERE id = 1`.execute(db);
  return Number(rows[0]?.tree_size ?? 0);
}

/** The next block to write: one past the highest written. */
async function nextBlock(db: Db | Trx): Promise<number> {
  const { rows } = await sql<{ next: number | string | null }>`SELECT max(block) + 1 AS next FROM leaf_blocks`.execute(
    db,
  );
  return Number(rows[0]?.next ?? 0);
}

/** Blocks of leaves [from, until), from the old leaves table. */
async function copyBlocks(trx: Trx, from: number, until: number): Promise<void> {
  if (until <= from) return;
  const { rows } = await sql<{ bytes: Uint8Array; logged_at: string }>`
    SELECT bytes, logged_at FROM leaves WHERE idx >= ${from} AND idx < ${until} ORDER BY idx`.execute(trx);
  await writeBlocks(
    trx,
    from,
    rows.map((r) => ({ bytes: new Uint8Array(r.bytes), logged_at: r.logged_at })),
    null,
  );
}

async function convertBlocks(db: Db): Promise<void> {
  for (;;) {
    const whole = Math.floor((await treeSize(db)) / LEAVES_PER_BLOCK);
    const next = await nextBlock(db);
    if (next >= whole) return;
    const until = Math.min(whole, next + BLOCKS_PER_STEP);
    await db.transaction().execute((trx) => copyBlocks(trx, next * LEAVES_PER_BLOCK, until * LEAVES_PER_BLOCK));
  }
}

/** The leaf below which pass 2 converts readings, fixed when it first starts. */
async function seriesUntil(db: Db): Promise<number> {
  const { rows } = await sql<{ series_until: number | string }>`
    SELECT series_until FROM layout_conversion WHERE id = 1`.execute(db);
  if (rows[0]) return Number(rows[0].series_until);
  const until = await treeSize(db);
  await sql`INSERT INTO layout_conversion (id, series_until) VALUES (1, ${until})`.execute(db);
  return until;
}

function toEntry(row: OldObservation): SeriesEntry {
  return {
    leaf_index: Number(row.leaf_index),
    observation_date: row.observation_date,
    state: row.state as State,
    corrects: row.corrects === null ? null : Number(row.corrects),
  };
}

async function convertSeries(db: Db, backend: 'sqlite' | 'postgres'): Promise<void> {
  const until = await seriesUntil(db);
  const { rows: bounds } = await sql<{ last: number | string | null }>`SELECT max(id) AS last FROM components`.execute(
    db,
  );
  const last = Number(bounds[0]?.last ?? 0);
  const { rows: done } = await sql<{ next: number | string | null }>`
    SELECT max(component_id) + 1 AS next FROM series`.execute(db);
  for (let from = Number(done[0]?.next ?? 0); from <= last; from += COMPONENTS_PER_STEP) {
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<OldObservation>`
        SELECT component_id, leaf_index, observation_date, state, corrects FROM observations
        WHERE component_id >= ${from} AND component_id < ${from + COMPONENTS_PER_STEP} AND leaf_index < ${until}
        ORDER BY component_id, leaf_index`.execute(trx);
      const byComponent = new Map<number, SeriesEntry[]>();
      for (const row of rows) {
        const id = Number(row.component_id);
        const list = byComponent.get(id);
        if (list) list.push(toEntry(row));
        else byComponent.set(id, [toEntry(row)]);
      }
      await writeSeriesRows(
        trx,
        backend,
        [...byComponent].map(([component_id, entries]) => ({ component_id, ...encodeEntries(entries) })),
      );
    });
  }
}

/**
 * The last step, in the migration's own transaction: under the sequencer's lock (so no append of
 * the previous version can land after it), the leaves and readings appended since the passes.
 */
export function finishLayout(backend: 'sqlite' | 'postgres') {
  return async (trx: Trx): Promise<void> => {
    if (backend === 'postgres') await sql`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK})`.execute(trx);
    else await sql`UPDATE log_state SET tree_size = tree_size WHERE id = 1`.execute(trx);
    const size = await treeSize(trx);
    await copyBlocks(trx, (await nextBlock(trx)) * LEAVES_PER_BLOCK, size);
    const { rows: fixed } = await sql<{ series_until: number | string }>`
      SELECT series_until FROM layout_conversion WHERE id = 1`.execute(trx);
    const from = Number(fixed[0]?.series_until ?? size);
    const { rows } = await sql<OldObservation>`
      SELECT component_id, leaf_index, observation_date, state, corrects FROM observations
      WHERE leaf_index >= ${from} ORDER BY leaf_index`.execute(trx);
    if (rows.length === 0) return;
    const added = new Map<number, SeriesEntry[]>();
    for (const row of rows) {
      const id = Number(row.component_id);
      const list = added.get(id);
      if (list) list.push(toEntry(row));
      else added.set(id, [toEntry(row)]);
    }
    const held = await readSeriesRows(trx, added.keys());
    await writeSeriesRows(
      trx,
      backend,
      [...added].map(([componentId, entries]) => extendedSeriesRow(componentId, held.get(componentId), entries)),
    );
  };
}
