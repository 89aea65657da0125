/** The dated series of one component and the state changes read along it (spec §2.2, §3). */
import { effectiveObservations } from './as-of.js';
import type { SeriesEntry } from './observation.js';
import { isAsserted, type AssertedState, type State } from './state.js';

export interface SeriesRow {
  observation_date: string;
  state: State;
  leaf_index: number;
  /** The reading shown comes from a correction appended after a dispute. */
  corrected: boolean;
}

/** One row per observation date, ascending, from the read view (corrections applied). */
export function seriesRows(observations: SeriesEntry[]): SeriesRow[] {
  return effectiveObservations(observations).map((o) => ({
    observation_date: o.observation_date,
    state: o.state,
    leaf_index: o.leaf_index,
    corrected: o.corrects !== null,
  }));
}

export interface Mutation {
  from: AssertedState;
  to: AssertedState;
  /** The first observation date on which the new state was read. */
  observed: string;
  leaf_index: number;
  /**
   * The change happened somewhere in (after, on_or_before]: after the last date the old
   * state was read and on or before the first date the new one was (spec §2.2 rule 3).
   */
  interval: { after: string; on_or_before: string };
}

/**
 * Changes between consecutive asserted states. A not_observed row is a gap, not a state:
 * it neither ends the old state nor starts a new one, so alive, not_observed, alive is no
 * change and alive, not_observed, dormant is one change whose interval spans the gap.
 */
export function stateMutations(observations: SeriesEntry[]): Mutation[] {
  const out: Mutation[] = [];
  let last: { state: AssertedState; date: string } | null = null;
  for (const o of effectiveObservations(observations)) {
    const state = o.state;
    if (!isAsserted(state)) continue;
    if (last !== null && last.state !== state) {
      out.push({
        from: last.state,
        to: state,
        observed: o.observation_date,
        leaf_index: o.leaf_index,
        interval: { after: last.date, on_or_before: o.observation_date },
      });
    }
    last = { state, date: o.observation_date };
  }
  return out;
}

export function stateChangeCount(observations: SeriesEntry[]): number {
  return stateMutations(observations).length;
}

/**
 * The read view up to and including `asOf` (all of it when null): what an as_of answer may
 * draw on. Nothing dated after `asOf` is in it, so series, counts and mutations computed
 * from it cannot leak a later reading. Its result can be passed to `seriesRows` and
 * `stateMutations` (the view is idempotent).
 */
export function seriesWithin<T extends SeriesEntry>(observations: T[], asOf: string | null): T[] {
  const view = effectiveObservations(observations);
  return asOf === null ? view : view.filter((o) => o.observation_date <= asOf);
}

export interface SeriesView {
  rows: SeriesRow[];
  mutations: Mutation[];
  state_changes: number;
  /** Spec §2.2 "Dated observations": count, first date, last date. */
  observation_count: number;
  first_observation_date: string | null;
  last_observation_date: string | null;
}

/** Everything a series answer or page shows, computed once from the view up to `asOf`. */
export function seriesView(observations: SeriesEntry[], asOf: string | null): SeriesView {
  const within = seriesWithin(observations, asOf);
  const rows = seriesRows(within);
  const mutations = stateMutations(within);
  return {
    rows,
    mutations,
    state_changes: mutations.length,
    observation_count: rows.length,
    first_observation_date: rows[0]?.observation_date ?? null,
    last_observation_date: rows.at(-1)?.observation_date ?? null,
  };
}
