/**
 * bench:registry's compressed virtual clock: virtual now = base + K × (real time since base), and a
 * jump forward to the next moment anything happens while nothing is due. Both sides read it: the
 * observer and the followers (their dates and holds), the budgets' day, the simulator's day.
 *
 * The per-second budgets are kept in real time on both sides (tended spaces its requests on
 * performance.now(); the simulator counts per real second), so both are given perSecond × K:
 * a rate within perSecond × K a real second is within perSecond a virtual second.
 */
import type { BudgetLimits } from '../src/upstreams/http/budget-limits.js';

export class VirtualClock {
  private baseVirtual: number;
  private baseReal: number;

  constructor(
    start: string,
    readonly speed: number,
  ) {
    this.baseVirtual = Date.parse(start);
    this.baseReal = performance.now();
  }

  nowMs(): number {
    return this.baseVirtual + this.speed * (performance.now() - this.baseReal);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves to `atMs` when it is ahead (the clock never goes back). */
  jumpTo(atMs: number): void {
    if (atMs <= this.nowMs()) return;
    this.baseVirtual = atMs;
    this.baseReal = performance.now();
  }
}

/** The real budgets with each per-second rate × K (the per-day counts are of virtual days: unchanged). */
export function compressedLimits(limits: BudgetLimits, speed: number): BudgetLimits {
  return Object.fromEntries(
    Object.entries(limits).map(([host, l]) => [host, { perSecond: l.perSecond * speed, perDay: l.perDay }]),
  ) as unknown as BudgetLimits;
}
