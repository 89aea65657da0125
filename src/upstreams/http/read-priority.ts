/**
 * Why a read is made, carried to the HTTP client without a parameter through every reader: the
 * caller runs the read inside `withReadPriority(reason, fn)` and every request the read makes,
 * however deep, spends its upstream's budget at that priority (budget.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * `interactive`: a read asked for now (a named observe, a dispute, `check --observe`, the daily
 * observer pass of a watched component): what every read was before budgets, and what a read with
 * no context is. `event`: a package's feed reported a change today. `threshold`: its age crosses
 * 181 or 366 days today. `backfill`: its first read after its registry was listed. `sweep`: the
 * periodic read every package gets at least every TENDED_SWEEP_DAYS.
 */
export const READ_PRIORITIES = ['interactive', 'event', 'threshold', 'backfill', 'sweep'] as const;
export type ReadPriority = (typeof READ_PRIORITIES)[number];

/**
 * The order requests are sent in when an upstream's budget is short, lowest first: events and
 * thresholds date a change on its own day, so they go with what someone asked for; a backfill
 * before the sweep, which dates only what no feed reports and has a whole interval to do it in.
 */
export const PRIORITY_RANK: Readonly<Record<ReadPriority, number>> = {
  interactive: 0,
  event: 0,
  threshold: 0,
  backfill: 1,
  sweep: 2,
};

const current = new AsyncLocalStorage<ReadPriority>();

/** Runs `fn` so that every upstream request it makes (awaited or not) is sent at `priority`. */
export function withReadPriority<T>(priority: ReadPriority, fn: () => T): T {
  return current.run(priority, fn);
}

/** The priority of the read this code runs for; `interactive` outside any. */
export function readPriority(): ReadPriority {
  return current.getStore() ?? 'interactive';
}
