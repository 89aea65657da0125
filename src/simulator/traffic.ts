/**
 * What the simulator counts of its clients: requests per upstream (path prefix), per second of the
 * real clock and per simulated day, against a budget per upstream. A request past a budget is
 * answered 429 with rate-limit headers, and the breach is recorded so a test or a benchmark can
 * fail on it: a run that goes over an upstream's published limit must not pass quietly.
 */

export interface Budget {
  /** Requests allowed in one second of the real clock. */
  perSecond?: number;
  /** Requests allowed in one simulated UTC day. */
  perDay?: number;
}

export interface BudgetViolation {
  upstream: string;
  /** Which budget: the second's or the day's. */
  window: 'second' | 'day';
  /** The second (epoch seconds, real clock) or the simulated day. */
  at: string;
  /** The request that went over, counted. */
  count: number;
  budget: number;
  path: string;
}

export interface UpstreamTraffic {
  requests: number;
  /** The most requests seen in any one second. */
  peakPerSecond: number;
  /** Requests per simulated UTC day. */
  perDay: Record<string, number>;
  /** Requests answered 429 because they went over the budget. */
  refused: number;
}

/** A violation is kept once per upstream, window and period: the record stays small under a hammering. */
const MAX_VIOLATIONS = 1_000;

export class Traffic {
  private readonly byUpstream = new Map<string, UpstreamTraffic>();
  private readonly currentSecond = new Map<string, { second: number; count: number }>();
  readonly violations: BudgetViolation[] = [];
  private readonly reported = new Set<string>();

  constructor(
    private budgets: Record<string, Budget> = {},
    private readonly realNow: () => number = Date.now,
  ) {}

  setBudgets(budgets: Record<string, Budget>): void {
    this.budgets = budgets;
  }

  /**
   * Counts one request; returns the refusal to answer with when it goes over a budget. A refused
   * request still counts: a client that keeps hammering keeps being refused.
   */
  count(upstream: string, day: string, path: string): { status: 429; headers: Record<string, string> } | null {
    const t = this.upstream(upstream);
    t.requests++;
    t.perDay[day] = (t.perDay[day] ?? 0) + 1;
    const now = this.realNow();
    const second = Math.floor(now / 1000);
    const current = this.currentSecond.get(upstream);
    const inSecond = current && current.second === second ? current.count + 1 : 1;
    this.currentSecond.set(upstream, { second, count: inSecond });
    t.peakPerSecond = Math.max(t.peakPerSecond, inSecond);
    const budget = this.budgets[upstream];
    if (!budget) return null;
    if (budget.perSecond !== undefined && inSecond > budget.perSecond) {
      this.violate({ upstream, window: 'second', at: String(second), count: inSecond, budget: budget.perSecond, path });
      t.refused++;
      return refusal(budget.perSecond, second + 1, 1);
    }
    const today = t.perDay[day] ?? 0;
    if (budget.perDay !== undefined && today > budget.perDay) {
      this.violate({ upstream, window: 'day', at: day, count: today, budget: budget.perDay, path });
      t.refused++;
      // The simulated day ends on the simulator's clock, which the client cannot read: an hour is a fair wait.
      return refusal(budget.perDay, second + 3600, 3600);
    }
    return null;
  }

  /** Every upstream's counts so far. */
  summary(): Record<string, UpstreamTraffic> {
    return Object.fromEntries([...this.byUpstream].map(([k, v]) => [k, { ...v, perDay: { ...v.perDay } }]));
  }

  private upstream(name: string): UpstreamTraffic {
    let t = this.byUpstream.get(name);
    if (!t) {
      t = { requests: 0, peakPerSecond: 0, perDay: {}, refused: 0 };
      this.byUpstream.set(name, t);
    }
    return t;
  }

  private violate(v: BudgetViolation): void {
    const key = `${v.upstream}|${v.window}|${v.at}`;
    if (this.reported.has(key) || this.violations.length >= MAX_VIOLATIONS) return;
    this.reported.add(key);
    this.violations.push(v);
  }
}

function refusal(
  limit: number,
  resetSec: number,
  retryAfter: number,
): { status: 429; headers: Record<string, string> } {
  return {
    status: 429,
    headers: {
      'retry-after': String(retryAfter),
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(resetSec),
    },
  };
}
