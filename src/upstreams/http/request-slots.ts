/**
 * How one HTTP client takes its turns with its upstream: at most so many exchanges at once, and,
 * for an upstream that asks readers to keep to a rate (crates.io's API: one request a second), a
 * minimum time between the starts of two requests.
 */

/**
 * A counting semaphore: at most `limit` exchanges with one upstream at a time. Waiters are let in
 * by rank, lowest first (read-priority.ts), then in the order they came: a sweep queued first
 * does not keep an event's request from the next free slot.
 */
export class Slots {
  private active = 0;
  private readonly waiting: { rank: number; go: () => void }[] = [];
  constructor(private readonly limit: number) {}

  async acquire(rank = 0): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((go) => {
      const at = this.waiting.findIndex((w) => w.rank > rank);
      this.waiting.splice(at === -1 ? this.waiting.length : at, 0, { rank, go });
    });
  }

  release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter, so `active` is unchanged.
    if (next) next.go();
    else this.active--;
  }
}

/** Hands out start times at least `intervalMs` apart, in the order asked, on the real clock. */
export class Pace {
  private nextStart = 0;
  constructor(private readonly intervalMs: number) {}

  async turn(): Promise<void> {
    if (this.intervalMs <= 0) return;
    const now = Date.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + this.intervalMs;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }
}
