import { sql, type Kysely } from 'kysely';
import type { ComponentKind } from '../domain/component.js';
import type { SeriesEntry } from '../domain/observation.js';
import { OBSERVATION_LEAF_TYPE } from '../domain/observation.js';
import { isAsserted, type AssertedState, type State } from '../domain/state.js';
import { decodeLeaf } from '../notary/leaf.js';
import { decodeBlockChanges } from './block-changes.js';
import { blockOf, decodeBlock, LEAVES_PER_BLOCK, type BlockLeaf } from './leaf-block.js';
import type { Database } from './schema.js';
import { readSeriesOf } from './kysely-series.js';
import { assertedBefore } from './series-entries.js';
import type { StateChange, StateChangeQuery } from './state-change.js';

/** Leaves read per step of the window: the work stops with the step that fills the page. */
const STEP = 4_096;
const IDS_PER_QUERY = 2_000;

interface Reading {
  index: number;
  logged_at: string;
  kind: ComponentKind;
  id: string;
  state: AssertedState;
  date: string;
  corrects: number | null;
}

/**
 * The change feed. The window [fromLeaf, untilLeaf) bounds the work of one request whatever the
 * log's size. A block lists its state changes (block-changes.ts): only the blocks with one are
 * opened, and only those leaves parsed. A block whose list is not known (written before
 * migration 15) is read the long way: each asserted reading finds the component's previous
 * asserted one in that component's series row.
 */
export async function readStateChanges(db: Kysely<Database>, q: StateChangeQuery): Promise<StateChange[]> {
  const changes: StateChange[] = [];
  for (let from = q.fromLeaf; from < q.untilLeaf && changes.length < q.limit; from += STEP) {
    const until = Math.min(q.untilLeaf, from + STEP);
    // A block's bytes come back only when it may hold a change: most blocks cost their few bytes of list.
    const { rows } = await sql<{ block: number; changes: Uint8Array | null; bytes: Uint8Array | null }>`
      SELECT block, changes, CASE WHEN changes IS NULL OR length(changes) > 0 THEN bytes END AS bytes
      FROM leaf_blocks WHERE block >= ${blockOf(from).block} AND block <= ${blockOf(until - 1).block}
      ORDER BY block`.execute(db);
    if (rows.length === 0) break;
    const found: StateChange[] = [];
    const unknown: Reading[] = [];
    for (const row of rows) {
      if (row.bytes === null) continue;
      const start = Number(row.block) * LEAVES_PER_BLOCK;
      const leaves = decodeBlock(row.bytes);
      const inWindow = (slot: number) => start + slot >= from && start + slot < until && slot < leaves.length;
      if (row.changes === null) {
        leaves.forEach((leaf, slot) => {
          const r = inWindow(slot) ? readingOf(leaf, start + slot, q.since) : null;
          if (r) unknown.push(r);
        });
        continue;
      }
      for (const { slot, previous } of decodeBlockChanges(row.changes)) {
        const r = inWindow(slot) ? readingOf(leaves[slot]!, start + slot, q.since) : null;
        if (r) found.push(changeOf(r, previous));
      }
    }
    if (unknown.length > 0) {
      const series = await readSeriesOf(db, unknown, IDS_PER_QUERY);
      for (const r of unknown) {
        const entries = series.get(`${r.kind}:${r.id}`);
        const previous = entries ? (assertedBefore(entries, r.index) ?? null) : null;
        if (previous !== null && previous.state !== r.state) found.push(changeOf(r, previous));
      }
      found.sort((a, b) => a.leaf_index - b.leaf_index);
    }
    changes.push(...found.slice(0, q.limit - changes.length));
  }
  return changes;
}

/** The reading a leaf records, when it is an asserted observation dated on or after `since`. */
function readingOf(leaf: BlockLeaf, index: number, since: string | null): Reading | null {
  const r = decodeLeaf(leaf.bytes) as Record<string, unknown>;
  if (r['_type'] !== OBSERVATION_LEAF_TYPE) return null;
  const state = r['state'] as State;
  const date = r['observation_date'] as string;
  if (!isAsserted(state) || (since !== null && date < since)) return null;
  return {
    index,
    logged_at: leaf.logged_at,
    kind: r['kind'] as ComponentKind,
    id: String(r['id']),
    state,
    date,
    corrects: typeof r['corrects'] === 'number' ? r['corrects'] : null,
  };
}

function changeOf(r: Reading, previous: SeriesEntry): StateChange {
  return {
    component: { kind: r.kind, id: r.id },
    from: previous.state as AssertedState,
    to: r.state,
    observation_date: r.date,
    previous_date: previous.observation_date,
    previous_leaf_index: previous.leaf_index,
    leaf_index: r.index,
    corrects: r.corrects,
    logged_at: r.logged_at,
  };
}
