/**
 * Tended's own request budgets, one per upstream host (budget-limits.ts): no request leaves
 * before its turn in the second, and none past the day's count. Every HTTP client of a host
 * (its readers' and its feed's) asks the same budget before each request it sends.
 *
 * When requests queue, they go in priority order (read-priority.ts): what someone asked for,
 * events and thresholds, then backfill, then sweeps. The day is shared the same way: sweeps stop
 * at SHARE_OF_DAY.sweep of it, backfill at SHARE_OF_DAY.backfill, and the rest is kept for the
 * reads that date a change on its own day. A request the day has no room for is not sent: the
 * client answers "not sent, until the next UTC day", which the observer defers (never an
 * observation, never `not_observed`).
 */
import { addDays, utcDateOf } from '../../domain/calendar.js';
import { BUDGETED_UPSTREAMS, type BudgetedUpstream, type BudgetLimit, type BudgetLimits } from './budget-limits.js';
import { MemoryBudgetStore, type BudgetStore, type Spend } from './budget-store.js';
import { PRIORITY_RANK, READ_PRIORITIES, type ReadPriority } from './read-priority.js';

/** The share of a day's budget each rank may spend up to (rank 0: all of it). */
export const SHARE_OF_DAY: readonly number[] = [1, 0.8, 0.6];

/**
 * Requests are spaced (1000 + SLACK_MS) / perSecond ms apart rather than 1000 / perSecond, so a
 * request held up between `sent()` and the wire (a new connection, a slow socket) by up to
 * SLACK_MS more than the one `perSecond` requests later still leaves no second with more than
 * `perSecond` of them.
 */
export const SLACK_MS = 100;

/**
 * A granted turn, which the caller uses at once: `sent()` in the same moment as the request
 * leaves (nothing awaited in between), or `unused()` when it will not be sent after all. The
 * spacing to the next request runs from `sent()`, not from the grant: a request that went out
 * late (a busy event loop at a pass's start) does not bring the next one closer to it. Until one
 * of the two is called no other turn on the host is granted, in this process or (through Redis)
 * any other; a holder that never calls either (a process that died) frees it after LEASE_MS.
 */
export interface BudgetTurn {
  readonly granted: true;
  sent(): void;
  unused(): void;
}

/** What a take comes to: a turn to use now, or the day's refusal. */
export type BudgetTake = BudgetTurn | { readonly granted: false; readonly refusal: BudgetRefusal };

/** A request the day's budget has no room for: not sent, and when to try again. */
export interface BudgetRefusal {
  upstream: BudgetedUpstream;
  priority: ReadPriority;
  /** The UTC day whose budget is spent. */
  day: string;
  /** The start of the next UTC day (RFC 3339), when the budget is whole again. */
  until: string;
  perDay: number;
  /** The count the priority stops at (perDay × its share). */
  ceiling: number;
}

interface Waiter {
  priority: ReadPriority;
  rank: number;
  day: string;
  resolve: (take: BudgetTake) => void;
}

/** One host's budget in this process: the queue of requests waiting for their turn, by priority. */
export class UpstreamBudget {
  readonly intervalMs: number;
  private readonly queues: Waiter[][] = SHARE_OF_DAY.map(() => []);
  private pumping = false;
  /** Requests sent and refused in this process, by priority, since it started. */
  readonly sent = zeroes();
  readonly refused = zeroes();

  constructor(
    readonly upstream: BudgetedUpstream,
    readonly limit: BudgetLimit,
    private readonly store: BudgetStore,
  ) {
    this.intervalMs = (1000 + SLACK_MS) / limit.perSecond;
  }

  /** Requests waiting for their turn in this process. */
  get waiting(): number {
    return this.queues.reduce((n, q) => n + q.length, 0);
  }

  /** The count a priority stops at today. */
  ceiling(priority: ReadPriority): number {
    return Math.floor(this.limit.perDay * SHARE_OF_DAY[PRIORITY_RANK[priority]]!);
  }

  /**
   * Resolves with a turn when a request at `priority` may be sent (send it now, calling
   * `sent()`), or with the refusal when the day (on the caller's clock, `nowMs`) has no room left.
   */
  take(priority: ReadPriority, nowMs: number): Promise<BudgetTake> {
    const rank = PRIORITY_RANK[priority];
    const day = utcDateOf(new Date(nowMs));
    return new Promise((resolve) => {
      this.queues[rank]!.push({ priority, rank, day, resolve });
      void this.pump();
    });
  }

  private first(): Waiter | undefined {
    for (const q of this.queues) if (q.length > 0) return q[0];
    return undefined;
  }

  /**
   * One loop per budget hands out the turns: it asks the store for the best waiter's turn, waits
   * as long as the store says, and gives a granted turn to whoever is best then (a sweep that
   * asked first gives way to an event that came while it waited). It asks for no other turn until
   * that one is sent or given up, so the next is spaced from the send.
   */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let head = this.first(); head; head = this.first()) {
        const spend = await this.spend(head);
        if (spend.kind === 'wait') {
          await sleep(spend.ms);
          continue;
        }
        const next = spend.kind === 'spent' ? head : this.first()!;
        this.queues[next.rank]!.shift();
        if (spend.kind === 'spent') {
          this.refused[next.priority]++;
          next.resolve({ granted: false, refusal: this.refusal(next) });
        } else {
          this.sent[next.priority]++;
          await this.hand(next);
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Gives `w` its turn and resolves once it was sent (the store told) or given up. */
  private hand(w: Waiter): Promise<void> {
    return new Promise<void>((done) => {
      let used = false;
      const use = (sent: boolean): void => {
        if (used) return;
        used = true;
        // A store that fails to hear of it frees the turn at the lease's end.
        Promise.resolve()
          .then(() => (sent ? this.store.sent(this.upstream, this.intervalMs) : this.store.unused(this.upstream)))
          .catch(() => undefined)
          .finally(done);
      };
      w.resolve({ granted: true, sent: () => use(true), unused: () => use(false) });
    });
  }

  private async spend(head: Waiter): Promise<Spend> {
    try {
      return await this.store.spend(this.upstream, head.day, this.ceiling(head.priority));
    } catch {
      // A store that failed outright (the fallback store never does): no turn is given on a guess.
      return { kind: 'wait', ms: 1_000 };
    }
  }

  private refusal(w: Waiter): BudgetRefusal {
    return {
      upstream: this.upstream,
      priority: w.priority,
      day: w.day,
      until: `${addDays(w.day, 1)}T00:00:00Z`,
      perDay: this.limit.perDay,
      ceiling: this.ceiling(w.priority),
    };
  }
}

/** What `tended follow status`, /metrics and the benchmark say of one host's budget. */
export interface BudgetUse {
  upstream: BudgetedUpstream;
  per_second: number;
  per_day: number;
  /** The UTC day the counts are of (the budgets' clock). */
  day: string;
  /** Requests sent today by every process sharing the budget (this one alone without Redis). */
  used_today: number;
  remaining_today: number;
  /** Where the day's count is kept now. */
  shared_in: 'memory' | 'redis';
  /** Requests waiting for their turn in this process. */
  waiting: number;
  /** This process, since it started: requests sent and refused (the day spent), by priority. */
  sent: Record<ReadPriority, number>;
  refused: Record<ReadPriority, number>;
}

/** Every host's budget, for one process: made once by the composition root and handed to every client. */
export class UpstreamBudgets {
  private readonly budgets: Map<BudgetedUpstream, UpstreamBudget>;
  private readonly store: BudgetStore;
  private readonly now: () => number;

  constructor(
    readonly limits: BudgetLimits,
    options: { store?: BudgetStore; now?: () => number } = {},
  ) {
    this.store = options.store ?? new MemoryBudgetStore();
    this.now = options.now ?? Date.now;
    this.budgets = new Map(BUDGETED_UPSTREAMS.map((u) => [u, new UpstreamBudget(u, limits[u], this.store)]));
  }

  of(upstream: BudgetedUpstream): UpstreamBudget {
    return this.budgets.get(upstream)!;
  }

  /** Each host's budget and its use today, in BUDGETED_UPSTREAMS order. */
  async use(): Promise<BudgetUse[]> {
    const day = utcDateOf(new Date(this.now()));
    return Promise.all(
      [...this.budgets.values()].map(async (b) => {
        const used = await this.store.usedOn(b.upstream, day);
        return {
          upstream: b.upstream,
          per_second: b.limit.perSecond,
          per_day: b.limit.perDay,
          day,
          used_today: used,
          remaining_today: Math.max(0, b.limit.perDay - used),
          shared_in: this.store.where(),
          waiting: b.waiting,
          sent: { ...b.sent },
          refused: { ...b.refused },
        };
      }),
    );
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

function zeroes(): Record<ReadPriority, number> {
  return Object.fromEntries(READ_PRIORITIES.map((p) => [p, 0])) as Record<ReadPriority, number>;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.ceil(ms))));
}
