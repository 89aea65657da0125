/**
 * Where an upstream budget's spending is kept: this process's memory, or Redis so every process
 * that reads an upstream spends one budget (src/limits/upstream-budgets.ts). Only upstream names,
 * UTC days and counts: nothing about who asked for a read.
 */

/**
 * How long a granted turn holds every other turn on its host back while it is not yet reported
 * sent or unused: a holder that died frees it after this. A turn is normally used at once.
 */
export const LEASE_MS = 5_000;
/** How often a process asks again while another holds a turn not yet sent (through Redis). */
export const LEASE_POLL_MS = 10;

/** What one ask for a request's turn comes to. */
export type Spend =
  /** Send it now, then report `sent` (or `unused`); `used` is the day's count with it. */
  | { kind: 'granted'; used: number }
  /** The last request went out less than an interval ago, or a granted one is not yet out: ask again in `ms`. */
  | { kind: 'wait'; ms: number }
  /** The day's count has reached the asker's ceiling: nothing more today at its priority. */
  | { kind: 'spent'; used: number };

export interface BudgetStore {
  /** Where the counts live now (Redis may be configured and unreachable: then memory). */
  readonly where: () => 'memory' | 'redis';
  /**
   * One request's turn on `upstream`: granted when the interval reported with the last `sent`
   * has passed, no granted turn is still unsent (its lease), and the count of `day` is under
   * `ceiling` (the count then grows by one, and the turn holds a lease of LEASE_MS).
   */
  spend(upstream: string, day: string, ceiling: number): Spend | Promise<Spend>;
  /** The granted turn was sent now: its lease ends, and the next waits `intervalMs` from now. */
  sent(upstream: string, intervalMs: number): void | Promise<void>;
  /** The granted turn will not be sent: its lease ends, the spacing from the last send stands. */
  unused(upstream: string): void | Promise<void>;
  /** Requests granted on `upstream` on `day`. */
  usedOn(upstream: string, day: string): number | Promise<number>;
  close(): Promise<void>;
}

interface Held {
  /** performance.now() before which no request may go. */
  next: number;
  /** performance.now() until which a granted, unsent turn holds the others back (0: none). */
  leased: number;
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

  spend(upstream: string, day: string, ceiling: number): Spend {
    const h = this.entry(upstream, day);
    if (h.used >= ceiling) return { kind: 'spent', used: h.used };
    const now = this.now();
    if (now < h.leased) return { kind: 'wait', ms: Math.min(h.leased - now, LEASE_POLL_MS) };
    if (now < h.next) return { kind: 'wait', ms: h.next - now };
    h.leased = now + LEASE_MS;
    h.used++;
    return { kind: 'granted', used: h.used };
  }

  sent(upstream: string, intervalMs: number): void {
    const h = this.held.get(upstream);
    if (!h) return;
    h.leased = 0;
    h.next = Math.max(h.next, this.now() + intervalMs);
  }

  unused(upstream: string): void {
    const h = this.held.get(upstream);
    if (h) h.leased = 0;
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

  private entry(upstream: string, day: string): Held {
    let h = this.held.get(upstream);
    if (!h) {
      h = { next: 0, leased: 0, day, used: 0 };
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
