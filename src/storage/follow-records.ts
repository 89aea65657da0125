/**
 * What the store's follow schedule takes and gives (Store.holdFollowed, claimScheduled,
 * rescheduleFollowed, followFigures, followReads): a follower's batch held for reading, a claim
 * and why it is due, a read's next date, and the counts an operator and the benchmark read.
 */
import type { ComponentRef } from '../domain/component.js';
import type { ReadReason } from '../domain/follow-schedule.js';

export interface HeldListing {
  component: ComponentRef;
  marker: string | null;
}

export interface HeldHint {
  component: ComponentRef;
  /** The UTC date of the change: the package is due from its first instant. */
  changed_on: string;
  marker: string | null;
  /** A removal is always read (a marker says nothing of a deletion). */
  removal: boolean;
}

export interface HoldOptions {
  /**
   * The listing is a re-listing after a break in the feed: every listed package whose marker
   * differs from the one held, or that was not held, is due as an event (its change fell in the
   * break, which the feed cannot show).
   */
  changedSinceHeld?: boolean;
}

export interface HoldOutcome {
  /** Packages held for the first time (listed or hinted). */
  added: number;
  /** Held packages a hint made due for an event. */
  hinted: number;
  /** Hints whose marker the package had when last read: nothing to read again. */
  already_read: number;
}

export interface ScheduledClaim {
  component: ComponentRef;
  /** Why it is due; null for a daily read (operator-watched or discovered). */
  reason: ReadReason | null;
}

export interface FollowedRead {
  component: ComponentRef;
  /** Why it was read (counted under this reason). */
  reason: ReadReason;
  /** The read showed something (not a failure): it counts toward the backfill and settles its marker. */
  succeeded: boolean;
  /** When it is next due (a date, due from its first instant), and why. */
  next_on: string;
  next_reason: ReadReason;
}

export interface FollowFigures {
  /** Packages held for this registry's follower. */
  listed: number;
  /** Of those, read at least once. */
  read_once: number;
  reads_today: Record<ReadReason, number>;
}

export interface FollowReadCount {
  day: string;
  registry: string;
  reason: ReadReason;
  reads: number;
}
