/**
 * When a package of a followed registry is read (DESIGN §8a): on its change day (a feed's hint),
 * on the days its age crosses into dormant and abandoned, and at least every sweep length on a day
 * of its own, so each day carries about the same share of the sweep. Pure rules: the store keeps
 * the dates, the observer applies them after each read.
 */
import { addDays, daysBetween, isRfc3339Instant, utcDateOf } from './calendar.js';
import type { ComponentRef } from './component.js';
import { ALIVE_MAX_DAYS, DORMANT_MAX_DAYS } from './state.js';

/** Why a followed package is due, in the order claims take them when more is due than can be read. */
export const READ_REASONS = ['event', 'threshold', 'backfill', 'sweep'] as const;
export type ReadReason = (typeof READ_REASONS)[number];

/**
 * Claim order: 0 first. Operator-watched and discovered components (read daily) share 0 with
 * events and age thresholds, since each is a change to be dated on its own day.
 */
export const READ_PRIORITY: Record<ReadReason, number> = { event: 0, threshold: 0, backfill: 1, sweep: 2 };

/** TENDED_SWEEP_DAYS' default: every followed package is read at least this often. */
export const SWEEP_DAYS_DEFAULT = 30;

/**
 * The package's fixed place in the sweep: a hash of `kind:id` modulo the sweep length. A hash
 * spreads names evenly whatever their alphabet, so each day's sweep is about 1/sweepDays of all.
 */
export function sweepSlot(ref: ComponentRef, sweepDays: number): number {
  // FNV-1a, 32 bits: stable across processes and versions (the slot must not move on restart).
  let h = 0x811c9dc5;
  const key = `${ref.kind}:${ref.id}`;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % sweepDays;
}

/** The first day after `after` that is the package's sweep day: 1 to sweepDays days later. */
export function nextSweepDay(ref: ComponentRef, after: string, sweepDays: number): string {
  const day = daysBetween('1970-01-01', after) + 1;
  const slot = sweepSlot(ref, sweepDays);
  return addDays(after, 1 + ((((slot - day) % sweepDays) + sweepDays) % sweepDays));
}

/**
 * The first day after `after` on which the age of `lastActivity` crosses a state boundary: the
 * first dormant day (181 days) or the first abandoned day (366); null when both are past or the
 * read gave no last activity (a failed, deleted or archived read: no age to cross).
 */
export function nextThresholdDay(lastActivity: string | null | undefined, after: string): string | null {
  if (typeof lastActivity !== 'string' || !isRfc3339Instant(lastActivity)) return null;
  const last = utcDateOf(lastActivity);
  for (const days of [ALIVE_MAX_DAYS + 1, DORMANT_MAX_DAYS + 1]) {
    const crossing = addDays(last, days);
    if (crossing > after) return crossing;
  }
  return null;
}

/**
 * The time of day a scheduled read (an age crossing or a sweep) falls due. A component is observed
 * once a date, so a package read at the day's start and published an hour later could only show
 * the change the next day: late in the UTC day, a scheduled read comes after most of that day's
 * changes, which the feed's hints have already had read. Six hours are left for the day's sweep at
 * each upstream's budget (the slowest at full size, the Go proxy at 5 a second, needs about four).
 */
export const SCHEDULED_READ_TIME = '18:00:00.000Z';

/** When a read for `reason` on `on` falls due: scheduled reads late in the day, the others at once. */
export function dueAt(on: string, reason: ReadReason): string {
  return `${on}T${reason === 'threshold' || reason === 'sweep' ? SCHEDULED_READ_TIME : '00:00:00.000Z'}`;
}

export interface NextRead {
  /** The UTC date the package is next due (at SCHEDULED_READ_TIME: dueAt). */
  on: string;
  reason: Extract<ReadReason, 'threshold' | 'sweep'>;
}

/** After a read on `readOn`: the earlier of the next age crossing and the next sweep day. */
export function nextFollowedRead(
  ref: ComponentRef,
  readOn: string,
  lastActivity: string | null | undefined,
  sweepDays: number,
): NextRead {
  const sweep = nextSweepDay(ref, readOn, sweepDays);
  const threshold = nextThresholdDay(lastActivity, readOn);
  return threshold !== null && threshold <= sweep
    ? { on: threshold, reason: 'threshold' }
    : { on: sweep, reason: 'sweep' };
}
