/**
 * Point-in-time reads. The answer for a date rests only on observations dated on or before
 * it: no nearest-value guess, no look-ahead, and a reading too old to vouch for the date is
 * reported as unknown-stale rather than carried forward.
 */
import { daysBetween, isCalendarDate, utcDateOf } from './calendar.js';
import { ValidationError, quoteInput } from './errors.js';
import type { Observation, SeriesEntry } from './observation.js';
import { STALE_AFTER_DAYS, isAsserted, type AssertedState, type State } from './state.js';

export type CensoringStatus = 'observed-on-date' | 'interval-censored' | 'not-observed-at-date';

/** The date whose reading `o` gives: a correction speaks for the date of the record it corrects. */
function readingDate(o: SeriesEntry, byLeaf: Map<number, SeriesEntry>): string {
  let cur = o;
  // Follow corrections of corrections back to the scheduled read. A log only ever points
  // backwards, so a `corrects` that is not an earlier leaf is bad data and is not followed;
  // that also rules out a cycle hanging a read.
  while (cur.corrects !== null && cur.corrects < cur.leaf_index) {
    const target = byLeaf.get(cur.corrects);
    if (!target) break;
    cur = target;
  }
  return cur.observation_date;
}

/**
 * The read view of one component's record: one observation per observation_date, ascending.
 *
 * Where corrections exist for an observation X, the latest of them (highest leaf_index)
 * gives X's date its reading; it is returned with `observation_date` set to X's date and
 * keeps its own `observed_at`, `corrects` and `leaf_index`, so the answer still points at
 * the correction's leaf. The original stays in the record; only this view changes.
 *
 * A correction whose target is not in `all` stays on its own date. That makes the view
 * idempotent (`effectiveObservations(effectiveObservations(x))` equals the first result),
 * so a view cut at a date can be handed to `seriesRows` or `stateMutations` again.
 */
export function effectiveObservations<T extends SeriesEntry>(all: T[]): T[] {
  // Most series are their own view: no correction and one reading per date, in date order. Then
  // the view is the input itself (never mutated by its readers), with no map and no sort: an
  // entity answer takes the view four times.
  if (isOwnView(all)) return all;
  const byLeaf = new Map<number, T>();
  for (const o of all) byLeaf.set(o.leaf_index, o);
  const byDate = new Map<string, T>();
  for (const o of all) {
    const date = readingDate(o, byLeaf);
    const current = byDate.get(date);
    // A correction is appended after what it corrects, so on one date the highest leaf
    // wins; this also keeps the answer deterministic if a date ever holds two reads.
    if (current === undefined || o.leaf_index > current.leaf_index) {
      byDate.set(date, date === o.observation_date ? o : { ...o, observation_date: date });
    }
  }
  return [...byDate.values()].sort((a, b) =>
    a.observation_date < b.observation_date ? -1 : a.observation_date > b.observation_date ? 1 : 0,
  );
}

/** No correction, and dates strictly ascending (so one reading per date). */
function isOwnView(all: SeriesEntry[]): boolean {
  let previous = '';
  for (const o of all) {
    if (o.corrects !== null || o.observation_date <= previous) return false;
    previous = o.observation_date;
  }
  return true;
}

export interface Resolution<T extends SeriesEntry = Observation> {
  /** The date answered for: the requested as_of, or today when none was given. */
  as_of: string;
  state: State;
  /** The real date of the observation the answer rests on; null when there is none. */
  observation_date: string | null;
  censoring_status: CensoringStatus;
  observation: T | null;
  /** The observation is more than 180 days older than `as_of`; no state is asserted. */
  stale: boolean;
  /** Whole days from `observation_date` to `as_of`; null when there is no observation. */
  age_days: number | null;
  /** The latest asserted reading on or before `as_of`, for context; never the answer itself. */
  last_asserted: { state: AssertedState; observation_date: string; leaf_index: number } | null;
}

/** The last date requireDate passed: a check of 10,000 components asks about the same two dates 10,000 times. */
let lastCheckedDate = '';

function requireDate(s: string, what: string): void {
  if (s === lastCheckedDate) return;
  if (!isCalendarDate(s)) throw new RangeError(`${what} must be a calendar date written YYYY-MM-DD`);
  lastCheckedDate = s;
}

/**
 * The answer for `asOf` (or for `today` when it is null), from one component's observations.
 * Validate user input with `parseAsOf` first; this only guards against programming errors.
 */
export function resolveAsOf<T extends SeriesEntry>(
  observations: T[],
  asOf: string | null,
  today: string,
): Resolution<T> {
  requireDate(today, 'today');
  if (asOf !== null) requireDate(asOf, 'asOf');
  const date = asOf ?? today;
  // Most components of a big SBOM have no observation at all; they need no view.
  const view =
    observations.length === 0
      ? observations
      : effectiveObservations(observations).filter((o) => o.observation_date <= date);
  const picked = view.at(-1);
  const asserted = view.findLast((o) => isAsserted(o.state));
  const last_asserted =
    asserted && isAsserted(asserted.state)
      ? { state: asserted.state, observation_date: asserted.observation_date, leaf_index: asserted.leaf_index }
      : null;
  if (picked === undefined) {
    return {
      as_of: date,
      state: 'not_observed',
      observation_date: null,
      censoring_status: 'not-observed-at-date',
      observation: null,
      stale: false,
      age_days: null,
      last_asserted,
    };
  }
  const age = daysBetween(picked.observation_date, date);
  const stale = age > STALE_AFTER_DAYS;
  return {
    as_of: date,
    // A stale read asserts nothing, whatever it said; a fresh not_observed read is reported
    // as such, never replaced by an older asserted state.
    state: stale ? 'unknown-stale' : picked.state,
    observation_date: picked.observation_date,
    censoring_status: age === 0 ? 'observed-on-date' : 'interval-censored',
    observation: picked,
    stale,
    age_days: age,
    last_asserted,
  };
}

/**
 * Reads the optional `as_of` query parameter. Absent or empty means "now" (null); anything
 * else must be a real date no later than `today`, because the service never answers for a
 * date it cannot have observed yet.
 */
export function parseAsOf(raw: string | undefined, today: string): string | null {
  requireDate(today, 'today');
  if (raw === undefined || raw === '') return null;
  if (!isCalendarDate(raw)) {
    throw new ValidationError([
      {
        loc: ['query', 'as_of'],
        msg: `as_of must be a real calendar date written YYYY-MM-DD, for example 2025-07-01; got ${quoteInput(String(raw))}`,
        type: 'value_error.date',
      },
    ]);
  }
  if (raw > today) {
    throw new ValidationError([
      {
        loc: ['query', 'as_of'],
        msg: `as_of cannot be later than today (${today}, UTC); got "${raw}". Ask for ${today} or an earlier date.`,
        type: 'value_error.date.future',
      },
    ]);
  }
  return raw;
}

/** A read's date: the as_of asked for (null: as of today) and the UTC date it was asked on. */
export interface DatedRead {
  asOf: string | null;
  today: string;
}

/**
 * The one reading of a request's `as_of`, made where the request comes in (a route, a page, a badge,
 * an MCP tool, the hot path) at the clock's `now`; the operations take the DatedRead it gives.
 */
export function datedRead(raw: string | undefined, now: Date): DatedRead {
  const today = utcDateOf(now);
  return { asOf: parseAsOf(raw, today), today };
}
