import { sql, type Kysely } from 'kysely';
import type { ComponentKind } from '../domain/component.js';
import type { AssertedState } from '../domain/state.js';
import type { Database } from './schema.js';
import type { StateChange, StateChangeQuery } from './store.js';

/**
 * The change feed's query, one text for both backends. The window [fromLeaf, untilLeaf) bounds the
 * work of one request whatever the log's size: the primary key walks the window, and each asserted
 * reading finds the component's previous asserted one with a single probe of the partial index
 * observations_asserted_by_component (migration 6). The state list is written out, not bound, so
 * both planners see that the query's predicate implies the index's.
 */
export async function readStateChanges(db: Kysely<Database>, q: StateChangeQuery): Promise<StateChange[]> {
  const { rows } = await sql<{
    leaf_index: number | string;
    observation_date: string;
    state: string;
    corrects: number | string | null;
    kind: string;
    native_id: string;
    from_state: string;
    from_date: string;
    from_leaf: number | string;
    logged_at: string;
  }>`
    SELECT x.leaf_index, x.observation_date, x.state, x.corrects, c.kind, c.native_id,
           p.state AS from_state, p.observation_date AS from_date, p.leaf_index AS from_leaf, l.logged_at
    FROM (
      SELECT o.leaf_index, o.component_id, o.observation_date, o.state, o.corrects,
             (SELECT max(q.leaf_index) FROM observations q
               WHERE q.component_id = o.component_id AND q.leaf_index < o.leaf_index
                 AND q.state NOT IN ('not_observed', 'unknown-stale')) AS prev_leaf
      FROM observations o
      WHERE o.leaf_index >= ${q.fromLeaf} AND o.leaf_index < ${q.untilLeaf}
        AND o.state NOT IN ('not_observed', 'unknown-stale')
        AND o.observation_date >= ${q.since ?? ''}
    ) x
    JOIN observations p ON p.leaf_index = x.prev_leaf
    JOIN components c ON c.id = x.component_id
    JOIN leaves l ON l.idx = x.leaf_index
    WHERE p.state <> x.state
    ORDER BY x.leaf_index
    LIMIT ${q.limit}`.execute(db);
  return rows.map((r) => ({
    component: { kind: r.kind as ComponentKind, id: r.native_id },
    from: r.from_state as AssertedState,
    to: r.state as AssertedState,
    observation_date: r.observation_date,
    previous_date: r.from_date,
    previous_leaf_index: Number(r.from_leaf),
    leaf_index: Number(r.leaf_index),
    corrects: r.corrects === null ? null : Number(r.corrects),
    logged_at: r.logged_at,
  }));
}

/** logged_at never goes backwards, so the first leaf by (logged_at, idx) is the first in the log. */
export async function firstLeafLoggedFrom(db: Kysely<Database>, instant: string): Promise<number | null> {
  const { rows } = await sql<{ idx: number | string }>`
    SELECT idx FROM leaves WHERE logged_at >= ${instant} ORDER BY logged_at, idx LIMIT 1`.execute(db);
  return rows[0] ? Number(rows[0].idx) : null;
}
