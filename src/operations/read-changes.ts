import { isCalendarDate, utcDateOf } from '../domain/calendar.js';
import { componentPurls, type ComponentKind } from '../domain/component.js';
import { ValidationError, type ValidationIssue } from '../domain/errors.js';
import type { AssertedState } from '../domain/state.js';
import type { StateChange } from '../storage/state-change.js';
import type { RecordDeps } from './deps.js';

export const CHANGES_LIMIT_DEFAULT = 100;
export const CHANGES_LIMIT_MAX = 500;
/**
 * Leaves one request examines at most. Changes are rare among daily readings, so filling a page
 * could otherwise walk millions of leaves; a page that stops at the window's end still carries a
 * `next` cursor, and following `next` visits every leaf once.
 */
export const CHANGES_WINDOW = 10_000;

export interface ChangeEntry {
  component: string;
  kind: ComponentKind;
  purl: [string, string];
  from: AssertedState;
  to: AssertedState;
  /** The date of the reading that showed `to`. */
  observed: string;
  /** (last date `from` was read, first date `to` was read]; null for a correction, which re-reads a date rather than dating a change. */
  interval: { after: string; on_or_before: string } | null;
  leaf_index: number;
  /** A correction appended after a dispute: the leaf whose reading it replaces. */
  correction: { corrects: number } | null;
  logged_at: string;
}

export interface ChangesPage {
  since: string | null;
  after: number | null;
  limit: number;
  tree_size: number;
  /** The last leaf this page examined: poll again later with `after` set to it. -1 when none was. */
  scanned_through: number;
  changes: ChangeEntry[];
  /** The cursor of the next page, or null when this page reached the end of the log. */
  next_after: number | null;
  license: 'CC-BY-4.0';
}

export interface ChangesQuery {
  since?: string;
  after?: string;
  limit?: string;
}

/**
 * State changes in log order (the feed). Each entry is fixed once its leaf is logged, since the
 * log is append-only; that is what makes a leaf-index cursor stable. See Store.stateChanges for
 * what counts as a change.
 */
export async function readChanges(
  deps: RecordDeps,
  query: ChangesQuery,
  window = CHANGES_WINDOW,
): Promise<ChangesPage> {
  const today = utcDateOf(deps.clock.now());
  const { since, after, limit } = parseChangesQuery(query, today);
  const size = await deps.store.treeSize();
  let from = after === null ? 0 : after + 1;
  // Nothing dated on or after `since` can have been logged before it: start at its first leaf.
  if (since !== null) from = Math.max(from, (await deps.store.firstLeafLoggedFrom(since)) ?? size);
  const until = Math.min(size, from + window);
  const rows = from < until ? await deps.store.stateChanges({ fromLeaf: from, untilLeaf: until, since, limit }) : [];
  const full = rows.length === limit;
  const scannedThrough = full ? rows.at(-1)!.leaf_index : Math.max(until, from) - 1;
  return {
    since,
    after,
    limit,
    tree_size: size,
    scanned_through: scannedThrough,
    changes: rows.map(changeEntry),
    next_after: scannedThrough + 1 < size ? scannedThrough : null,
    license: 'CC-BY-4.0',
  };
}

/** A change as the feeds and webhook deliveries show it. */
export function changeEntry(row: StateChange): ChangeEntry {
  const correction = row.corrects === null ? null : { corrects: row.corrects };
  return {
    component: row.component.id,
    kind: row.component.kind,
    purl: componentPurls(row.component),
    from: row.from,
    to: row.to,
    observed: row.observation_date,
    interval: correction ? null : { after: row.previous_date, on_or_before: row.observation_date },
    leaf_index: row.leaf_index,
    correction,
    logged_at: row.logged_at,
  };
}

function parseChangesQuery(
  query: ChangesQuery,
  today: string,
): { since: string | null; after: number | null; limit: number } {
  const issues: ValidationIssue[] = [];
  let since: string | null = null;
  if (query.since !== undefined) {
    if (!isCalendarDate(query.since)) {
      issues.push({
        loc: ['query', 'since'],
        msg: `since must be a real calendar date written YYYY-MM-DD, for example 2025-07-01`,
        type: 'value_error.date',
      });
    } else if (query.since > today) {
      issues.push({
        loc: ['query', 'since'],
        msg: `since cannot be later than today (${today}, UTC)`,
        type: 'value_error.date.future',
      });
    } else {
      since = query.since;
    }
  }
  const after =
    query.after === undefined ? null : wholeNumber(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, issues);
  const limit =
    query.limit === undefined
      ? CHANGES_LIMIT_DEFAULT
      : (wholeNumber(query.limit, 'limit', 1, CHANGES_LIMIT_MAX, issues) ?? CHANGES_LIMIT_DEFAULT);
  if (issues.length > 0) throw new ValidationError(issues);
  return { since, after, limit };
}

function wholeNumber(raw: string, name: string, min: number, max: number, issues: ValidationIssue[]): number | null {
  const n = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    issues.push({
      loc: ['query', name],
      msg: `${name} must be a whole number from ${min} to ${max}`,
      type: 'value_error.number',
    });
    return null;
  }
  return n;
}
