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

export interface FollowCursorRecord {
  registry: string;
  cursor: string;
  updated_at: string;
  /** When a batch that continued contiguously was last committed; null when none was. */
  last_contiguous_at: string | null;
  /** Faults committed so far, and the newest. */
  faults_seen: number;
  last_fault: { kind: string; detail: string; at: string } | null;
}

export interface FollowProgress {
  contiguous: boolean;
  faults: { kind: string; detail: string; at: string }[];
}

/** The port's following part (Store extends it): cursors, leases and the schedule of followed packages. */
export interface FollowStore {
  /** A followed registry's cursor and health (DESIGN §8a), or null before it was ever followed. */
  followCursor(registry: string): Promise<FollowCursorRecord | null>;
  /** Commits a follower's cursor once its batch is handled, with whether it read on contiguously and the faults it met. */
  setFollowCursor(registry: string, cursor: string, at: string, progress: FollowProgress): Promise<void>;
  /**
   * Holds what a follower's batch named for reading (follow schedule): a listed package never held
   * is due at `at` for its backfill (one already held keeps its schedule; only its marker moves);
   * a hint makes its package due on the hint's day for the event, unless its marker is the one the
   * package had when last read. Operator-watched and discovered components keep their daily reads.
   * With `changedSinceHeld` (a re-listing after a break), a listed package whose marker differs
   * from the held one, or that was not held, is due as an event too.
   */
  holdFollowed(listed: HeldListing[], hints: HeldHint[], at: string, options?: HoldOptions): Promise<HoldOutcome>;
  /**
   * Claims like claimDue, in priority order (daily, event and threshold reads first, then backfill,
   * then sweep; oldest due first within each), and says why each claimed component is due.
   */
  claimScheduled(now: string, limit: number, leaseUntil: string): Promise<ScheduledClaim[]>;
  /**
   * Ends the claims of followed packages just read on `readOn`: each is next due as the schedule
   * says, or the next day for the event when a hint came while it was being read. Counts each read
   * by its registry, its reason and the day.
   */
  rescheduleFollowed(reads: FollowedRead[], readOn: string): Promise<void>;
  /** A registry's (a followed kind's) backfill progress and its reads on `day` by reason: small rows, no scan. */
  followFigures(registry: string, day: string): Promise<FollowFigures>;
  /** Reads per day, registry and reason for days in [fromDay, toDay], oldest first. */
  followReads(fromDay: string, toDay: string): Promise<FollowReadCount[]>;
  /**
   * Takes or renews the lease on following `registry` until `until`, unless another holder's
   * lease still runs at `now`: one process of a deployment follows a registry at a time.
   */
  leaseFollow(registry: string, holder: string, now: string, until: string): Promise<boolean>;
  /** Gives the lease up (a stopping process), when `holder` has it. */
  releaseFollowLease(registry: string, holder: string): Promise<void>;
}
