/**
 * The follower every registry shares: a backfill listing, then the feed, a re-listing on any
 * contiguity fault, and optionally a periodic deep re-listing. Each registry's folder supplies its
 * feed's three moves (its head, a listing page, a feed step); this turns them into batches whose
 * cursor (JSON, kept by the store) says where the next pass resumes.
 */
import { utcDateOf } from '../../domain/calendar.js';
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { isUnreachable, type Unreachable } from './feed-client.js';
import { excerpt } from '../../domain/text.js';
import type {
  ChangeHint,
  RefusedFeedFault,
  ContiguityFault,
  FeedFault,
  Follower,
  FollowBatch,
  FollowedRegistry,
  ListedPackage,
  RelistReason,
} from './follower.js';

export interface ListPage<L, F> {
  listed: ListedPackage[];
  /** Packages the listing itself shows changed after the position a re-listing started from. */
  hints: ChangeHint[];
  /** Where the listing continues; null once it is done. */
  next: L | null;
  /** Where following starts, when the listing's own document says (PyPI's serial, a file's length). */
  followFrom?: F;
  /** The rows the request asked for at most, and the rows the answer held (a feed with a page size). */
  page?: PageCount;
}

/** A page's rows against the most its request asked for: more than asked is refused (REFUSED_FEED_FAULTS). */
export interface PageCount {
  asked: number;
  rows: number;
}

export interface FollowStep<F> {
  hints: ChangeHint[];
  next: F;
  caughtUp: boolean;
  /** What the step noticed that needs no re-listing (npm's late insertions caught by the window). */
  notes?: FeedFault[];
  /** A break the feed cannot be followed across: the registry is re-listed. */
  fault?: { kind: ContiguityFault; detail: string };
  page?: PageCount;
}

/** A step that found the feed behind where it was followed to: it stays there, and the registry is re-listed. */
export function regressedAt<F>(from: F, detail: string): FollowStep<F> {
  return { hints: [], next: from, caughtUp: false, fault: { kind: 'cursor_regressed', detail } };
}

export interface RegistryFeed<L, F> {
  readonly registry: FollowedRegistry;
  /** The feed's position now, for a listing begun now to hand to following; null when the listing says it. */
  head(): Promise<F | null | Unreachable>;
  /**
   * A listing page from `at` (null: the start). `around.changedAfter` is where the feed was left
   * (null on a backfill), `around.followFrom` where following is to resume once the listing is done.
   */
  list(
    at: L | null,
    around: { changedAfter: F | null; followFrom: F | null; reason: RelistReason },
  ): Promise<ListPage<L, F> | Unreachable>;
  /** The next feed step from `from`; `first` is the pass's first step (npm re-reads its window then). */
  follow(from: F, first: boolean): Promise<FollowStep<F> | Unreachable>;
  /**
   * What of a position must move for a step to be progress (default: all of it). npm's position
   * also holds which seq of its window were seen, which a page that does not move on can change.
   */
  progressOf?(position: F): unknown;
}

type Cursor<L, F> =
  | {
      v: 1;
      state: 'listing';
      reason: RelistReason;
      at: L | null;
      follow_from: F | null;
      changed_after: F | null;
    }
  | { v: 1; state: 'following'; follow: F; listed_at: string };

export interface FollowerOptions {
  /** The follower's clock: dates of hints without a time of their own, faults, periodic re-listing. */
  now?: () => Date;
  /** Re-list the whole registry this often though nothing broke (null: never). */
  relistEveryDays?: number | null;
  /** Overrides MAX_BATCHES_PER_PASS (tests). */
  maxBatches?: number;
}

const DAY_MS = 86_400_000;
/**
 * The most batches one pass hands out: far more than any real backlog (npm's whole listing is
 * ~400 pages), so only a feed that keeps answering "more" reaches it. The pass then ends where it
 * is, committed, and the next one continues: a pass is never endless.
 */
export const MAX_BATCHES_PER_PASS = 5_000;

export class RegistryFollower<L, F> implements Follower {
  readonly registry: FollowedRegistry;
  private readonly now: () => Date;

  constructor(
    private readonly feed: RegistryFeed<L, F>,
    private readonly options: FollowerOptions = {},
  ) {
    this.registry = feed.registry;
    this.now = options.now ?? (() => new Date());
  }

  async *pass(committed: string | null): AsyncGenerator<FollowBatch> {
    let cursor = committed === null ? null : (JSON.parse(committed) as Cursor<L, F>);
    if (cursor === null) {
      // Following starts from the head as it was before the listing, so nothing published meanwhile is missed.
      const head = await this.feed.head();
      if (isUnreachable(head)) {
        yield this.stopped(committed, head);
        return;
      }
      cursor = { v: 1, state: 'listing', reason: 'backfill', at: null, follow_from: head, changed_after: null };
    }
    let first = true;
    let relisted = false;
    for (let batches = 1; ; batches++) {
      if (batches > (this.options.maxBatches ?? MAX_BATCHES_PER_PASS)) return;
      if (cursor.state === 'listing') {
        const page = await this.feed.list(cursor.at, {
          changedAfter: cursor.changed_after,
          followFrom: cursor.follow_from,
          reason: cursor.reason,
        });
        if (isUnreachable(page)) {
          yield this.stopped(JSON.stringify(cursor), page);
          return;
        }
        const refused =
          this.oversized(page.page) ??
          (page.next !== null && cursor.at !== null && this.same(page.next, cursor.at)
            ? this.stuck(`the listing's next page starts where this one did (${clip(JSON.stringify(cursor.at))})`)
            : null);
        if (refused) {
          yield this.refused(cursor, refused);
          return;
        }
        const reason = cursor.reason;
        if (page.next === null) {
          const from: F | null = page.followFrom ?? cursor.follow_from;
          if (from === null)
            throw new Error(`${this.registry}: a listing ended without a feed position to follow from`);
          cursor = { v: 1, state: 'following', follow: from, listed_at: this.now().toISOString() };
        } else cursor = { ...cursor, at: page.next };
        yield this.batch('listing', reason, page.hints, page.listed, [], true, cursor, false);
        continue;
      }
      const step = await this.feed.follow(cursor.follow, first);
      const wasFirst = first;
      first = false;
      if (isUnreachable(step)) {
        yield this.stopped(JSON.stringify(cursor), step);
        return;
      }
      // The first step may re-read behind the position (npm's trailing window): only later ones must move it.
      const mustMove = !wasFirst && !step.caughtUp && !step.fault;
      const progress = (p: F) => (this.feed.progressOf ? this.feed.progressOf(p) : p);
      const refused =
        this.oversized(step.page) ??
        (mustMove && this.same(step.next, cursor.follow, progress)
          ? this.stuck(`a step that was not the last left the position at ${clip(JSON.stringify(cursor.follow))}`)
          : null);
      if (refused) {
        yield this.refused(cursor, refused);
        return;
      }
      const notes = step.notes ?? [];
      if (step.fault) {
        const fault: FeedFault = { ...step.fault, at: this.now().toISOString() };
        // A feed that breaks again right after a re-listing would be re-listed without end: once a pass is enough.
        if (relisted) {
          yield this.batch('following', null, step.hints, [], [...notes, fault], false, cursor, true);
          return;
        }
        const head = await this.feed.head();
        if (isUnreachable(head)) {
          yield this.stopped(JSON.stringify(cursor), head, [...notes, fault]);
          return;
        }
        const from: F = cursor.follow;
        cursor = { v: 1, state: 'listing', reason: step.fault.kind, at: null, follow_from: head, changed_after: from };
        relisted = true;
        yield this.batch('following', null, step.hints, [], [...notes, fault], false, cursor, false);
        continue;
      }
      cursor = { ...cursor, follow: step.next };
      // Once caught up, a periodic deep listing that is due runs; it keeps the feed position, so it is no break.
      const every = this.options.relistEveryDays;
      const due = every && this.now().getTime() - Date.parse(cursor.listed_at) >= every * DAY_MS;
      yield this.batch('following', null, step.hints, [], notes, true, cursor, step.caughtUp && !due);
      if (!step.caughtUp) continue;
      if (!due) return;
      const from: F = cursor.follow;
      cursor = { v: 1, state: 'listing', reason: 'periodic', at: null, follow_from: from, changed_after: from };
    }
  }

  private oversized(page: PageCount | undefined): { kind: RefusedFeedFault; detail: string } | null {
    return page && page.rows > page.asked
      ? {
          kind: 'oversized_page',
          detail: `a page held ${page.rows} rows for a request of at most ${page.asked}: refused unread`,
        }
      : null;
  }

  private stuck(detail: string): { kind: RefusedFeedFault; detail: string } {
    return { kind: 'stuck_cursor', detail: `${detail}: the feed does not move on, so it is not asked again this pass` };
  }

  private same<T>(a: T, b: T, key: (p: T) => unknown = (p) => p): boolean {
    return JSON.stringify(key(a)) === JSON.stringify(key(b));
  }

  /** An answer refused: nothing of it is used, the cursor stays where the pass was, and the pass ends. */
  private refused(cursor: Cursor<L, F>, why: { kind: RefusedFeedFault; detail: string }): FollowBatch {
    const fault: FeedFault = { ...why, at: this.now().toISOString() };
    return this.batch(
      cursor.state === 'listing' ? 'listing' : 'following',
      cursor.state === 'listing' ? cursor.reason : null,
      [],
      [],
      [fault],
      false,
      cursor,
      true,
    );
  }

  private batch(
    step: FollowBatch['step'],
    relist: RelistReason | null,
    hints: ChangeHint[],
    listed: ListedPackage[],
    faults: FeedFault[],
    contiguous: boolean,
    cursor: Cursor<L, F>,
    caughtUp: boolean,
  ): FollowBatch {
    return {
      registry: this.registry,
      step,
      relist,
      hints,
      listed,
      faults,
      contiguous,
      cursor: JSON.stringify(cursor),
      caught_up: caughtUp,
    };
  }

  /** The feed could not be read: the pass ends here, and the cursor is the one the pass was at. */
  private stopped(cursor: string | null, why: Unreachable, faults: FeedFault[] = []): FollowBatch {
    const at = this.now().toISOString();
    return {
      registry: this.registry,
      step: 'following',
      relist: null,
      hints: [],
      listed: [],
      faults: [...faults, { kind: why.refused ?? 'unreachable', detail: why.unreachable, at }],
      contiguous: false,
      // Never followed and the head unread: nothing to commit but "start again".
      cursor: cursor ?? 'null',
      caught_up: true,
    };
  }
}

function clip(text: string): string {
  return excerpt(text, 120);
}

/** The UTC date the follower read something on: a hint's date when the feed gives no time. */
export function readOn(now: () => Date): string {
  return utcDateOf(now());
}

/** The component a feed's name names, or null for one the registry's rules refuse (a design document). */
export function componentOf(registry: FollowedRegistry, name: string): ComponentRef | null {
  try {
    return normaliseComponent(registry, name);
  } catch {
    return null;
  }
}
