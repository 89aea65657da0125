/**
 * Progress of long CLI work (verify of millions of leaves, export): on a terminal one line
 * rewritten in place with the count, the rate and the time left; elsewhere (CI logs, pipes) one
 * summary line at the end, so logs stay clean, or, with `logEveryMs`, also a line that often for
 * work slow enough that a log silent for its length looks stuck (reads of upstreams).
 */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** A terminal line is redrawn at most this often: redrawing per leaf would cost more than the work. */
const REDRAW_MS = 250;

export class Progress {
  private done = 0;
  private readonly started: number;
  private lastDrawn = -Infinity;
  private lastLogged: number;
  private finished = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
    private readonly unit: string,
    private readonly total: number | null,
    private readonly now: () => number = () => performance.now(),
    private readonly logEveryMs: number | null = null,
  ) {
    this.started = now();
    this.lastLogged = this.started;
  }

  add(n = 1): void {
    this.done += n;
    if (this.stream.isTTY !== true) {
      if (this.logEveryMs === null) return;
      const at = this.now();
      if (at - this.lastLogged < this.logEveryMs) return;
      this.lastLogged = at;
      this.stream.write(`${this.line(at)}\n`);
      return;
    }
    const at = this.now();
    if (at - this.lastDrawn < REDRAW_MS) return;
    this.lastDrawn = at;
    this.stream.write(`\r${this.line(at)}\x1b[K`);
  }

  /**
   * Work stopped part-way (an error about to be said): on a terminal, the drawn line is ended so
   * the sentence that follows starts a line of its own; elsewhere nothing was drawn to end.
   */
  interrupt(): void {
    if (this.stream.isTTY === true && this.lastDrawn !== -Infinity && !this.finished) this.stream.write('\n');
    this.finished = true;
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    const at = this.now();
    const seconds = (at - this.started) / 1000;
    if (this.stream.isTTY === true) this.stream.write(`\r${this.line(at)}\x1b[K\n`);
    else
      this.stream.write(
        `${this.label}: ${count(this.done)} ${this.unit} in ${seconds.toFixed(1)} s (${count(rate(this.done, seconds))}/s)\n`,
      );
  }

  private line(at: number): string {
    const seconds = (at - this.started) / 1000;
    const perSecond = rate(this.done, seconds);
    const of = this.total !== null ? ` of ${count(this.total)}` : '';
    const left =
      this.total !== null && perSecond > 0 && this.done < this.total
        ? `, ${duration((this.total - this.done) / perSecond)} left`
        : '';
    return `${this.label}: ${count(this.done)}${of} ${this.unit} (${count(perSecond)}/s${left})`;
  }
}

/** Passes `items` through, counting each one on `progress`. */
/** Counts each item, or each element of an item that is a page (an array). */
export async function* counted<T>(items: AsyncIterable<T>, progress: Progress): AsyncGenerator<T> {
  for await (const item of items) {
    progress.add(Array.isArray(item) ? item.length : 1);
    yield item;
  }
}

function rate(n: number, seconds: number): number {
  return seconds > 0 ? Math.round(n / seconds) : 0;
}

function count(n: number): string {
  return n.toLocaleString('en');
}

function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}
