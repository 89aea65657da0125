import type { Kysely } from 'kysely';
import type { ComponentKind } from '../domain/component.js';
import { OBSERVATION_LEAF_TYPE } from '../domain/observation.js';
import { isAsserted, type AssertedState, type State } from '../domain/state.js';
import { decodeLeaf } from '../notary/leaf.js';
import { readLeafRange } from './kysely-blocks.js';
import type { Database } from './schema.js';
import { readSeriesOf } from './kysely-series.js';
import { assertedBefore } from './series-entries.js';
import type { StateChange, StateChangeQuery } from './store.js';

/** Leaves read per step of the window: the work stops with the step that fills the page. */
const STEP = 4_096;
const IDS_PER_QUERY = 2_000;

/**
 * The change feed. The window [fromLeaf, untilLeaf) bounds the work of one request whatever the
 * log's size: its leaves are read block by block, and each asserted reading finds the component's
 * previous asserted one in that component's series row (one read per component of the step).
 */
export async function readStateChanges(db: Kysely<Database>, q: StateChangeQuery): Promise<StateChange[]> {
  const changes: StateChange[] = [];
  for (let from = q.fromLeaf; from < q.untilLeaf && changes.length < q.limit; from += STEP) {
    const leaves = await readLeafRange(db, from, Math.min(STEP, q.untilLeaf - from));
    if (leaves.length === 0) break;
    const readings = leaves.flatMap((leaf) => {
      const r = decodeLeaf(leaf.bytes) as Record<string, unknown>;
      if (r['_type'] !== OBSERVATION_LEAF_TYPE) return [];
      const state = r['state'] as State;
      const date = r['observation_date'] as string;
      if (!isAsserted(state) || (q.since !== null && date < q.since)) return [];
      return [
        {
          index: leaf.index,
          logged_at: leaf.logged_at,
          kind: r['kind'] as ComponentKind,
          id: String(r['id']),
          state,
          date,
          corrects: typeof r['corrects'] === 'number' ? r['corrects'] : null,
        },
      ];
    });
    const series = await readSeriesOf(db, readings, IDS_PER_QUERY);
    for (const r of readings) {
      const entries = series.get(`${r.kind}:${r.id}`);
      const previous = entries ? (assertedBefore(entries, r.index) ?? null) : null;
      if (previous === null || previous.state === r.state) continue;
      changes.push({
        component: { kind: r.kind, id: r.id },
        from: previous.state as AssertedState,
        to: r.state,
        observation_date: r.date,
        previous_date: previous.observation_date,
        previous_leaf_index: previous.leaf_index,
        leaf_index: r.index,
        corrects: r.corrects,
        logged_at: r.logged_at,
      });
      if (changes.length === q.limit) break;
    }
  }
  return changes;
}
