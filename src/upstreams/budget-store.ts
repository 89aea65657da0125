/**
 * Where an upstream budget's spending is kept: this process's memory, or Redis so every process
 * that reads an upstream spends one budget (src/limits/upstream-budgets.ts). Only upstream names,
 * UTC days and counts: nothing about who asked for a read.
 */

/** What one ask for a request's turn comes to. */
export type Spend =
  /** Send it now; `used` is the day's count with it. */
  | { kind: 'granted'; used: number }
  /** The last request went out less than an interval ago: ask again in `ms`. */
  | { kind: 'wait'; ms: number }
  /** The day's count has reached the asker's ceiling: nothing more today at its priority. */
  | { kind: 'spent'; used: number };

export interface BudgetStore {
  /** Where the counts live now (Redis may be configured and unreachable: then memory). */
  readonly where: () => 'memory' | 'redis';
  /**
   * One request's turn on `upstream`: granted when at least `intervalMs` passed since the last
   * granted one and the count of `day` is under `ceiling` (the count then grows by one).
   */
  spend(upstream: string, day: string, ceiling: number, intervalMs: number): Spend | Promise<Spend>;
  /** Requests granted on `upstream` on `day`. */
  usedOn(upstream: string, day: string): number | Promise<number>;
  close(): Promise<void>;
}

interface Held {
  /** performance.now() before which no request may go. */
  next: number;
  day: string;
  used: number;
}

/**
 * The counts in this process: the default, and the fallback while Redis is unreachable. Each
 * upstream keeps its latest day only; an ask dated before it (a clock a moment behind) counts
 * against it. The spacing is measured on performance.now(), which a moved wall clock leaves alone.
 */
export class MemoryBudgetStore implements BudgetStore {
  private readonly held = new Map<string, Held>();
  readonly where = () => 'memory' as const;

  constructor(private readonly now: () => number = () => performance.now()) {}

  spend(upstream: string, day: string, ceiling: number, intervalMs: number): Spend {
    const h = this.entry(upstream, day);
    if (h.used >= ceiling) return { kind: 'spent', used: h.used };
    const now = this.now();
    if (now < h.next) return { kind: 'wait', ms: h.next - now };
    h.next = now + intervalMs;
    h.used++;
    return { kind: 'granted', used: h.used };
  }

  usedOn(upstream: string, day: string): number {
    const h = this.held.get(upstream);
    return h && h.day === day ? h.used : 0;
  }

  /** Raises the day's count to what the shared store said (the fallback starts from there). */
  noteUsed(upstream: string, day: string, used: number): void {
    const h = this.entry(upstream, day);
    if (h.day === day && used > h.used) h.used = used;
  }

  /** Holds the next request back until `intervalMs` after now (a request the shared store granted). */
  noteSent(upstream: string, day: string, intervalMs: number): void {
    this.entry(upstream, day).next = this.now() + intervalMs;
  }

  private entry(upstream: string, day: string): Held {
    let h = this.held.get(upstream);
    if (!h) {
      h = { next: 0, day, used: 0 };
      this.held.set(upstream, h);
    } else if (day > h.day) {
      h.day = day;
      h.used = 0;
    }
    return h;
  }

  close(): Promise<void> {
    this.held.clear();
    return Promise.resolve();
  }
}
