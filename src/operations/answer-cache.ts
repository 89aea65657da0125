import { createHash } from 'node:crypto';

/**
 * The weak validator every answer carries (W/ and 22 base64url characters of SHA-256): over the
 * answer's bytes, or over a key that names the data it was computed from. Equal input, equal tag,
 * on every instance.
 */
export function weakTag(content: string | Uint8Array): string {
  return `W/"${createHash('sha256').update(content).digest('base64url').slice(0, 22)}"`;
}

/**
 * A bounded least-recently-used map for computed answers. Either the key carries the version of
 * the data an answer was computed from (a new observation changes the key, and the old entry ages
 * out), or the entry holds the version and the reader checks it (read-entity.ts).
 *
 * Bounded by entries and, when given `sizeOf`, by bytes too: answers range from a few hundred
 * bytes to hundreds of kB (a long series, an org of thousands of repositories), so an entry count
 * alone says little about the memory held.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private heldBytes = 0;
  /**
   * Lookups that found an answer, and that did not: plain counts the operator's metrics read when
   * scraped, so a hit on the hot path costs one increment and nothing more.
   */
  hits = 0;
  misses = 0;

  constructor(
    private readonly capacity: number,
    private readonly bytes: { max: number; sizeOf: (value: T, key: string) => number } | null = null,
  ) {}

  /** The most recently used key: a repeat read of it need not move it (a hot answer is read over and over). */
  private newest: string | undefined;

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.hits++;
      // Re-insert so Map order tracks recency; the first key is then the least recently used.
      if (key !== this.newest) {
        this.entries.delete(key);
        this.entries.set(key, entry);
        this.newest = key;
      }
      return entry.value;
    }
    this.misses++;
    return undefined;
  }

  /** A found answer its reader found out of date (read-entity.ts checks the version): a miss after all. */
  stale(): void {
    this.hits--;
    this.misses++;
  }

  set(key: string, value: T): void {
    this.drop(key);
    const bytes = this.bytes ? this.bytes.sizeOf(value, key) : 0;
    // An answer larger than the whole budget is not kept: it would only push everything else out.
    if (this.bytes && bytes > this.bytes.max) return;
    this.entries.set(key, { value, bytes });
    this.newest = key;
    this.heldBytes += bytes;
    while (this.entries.size > this.capacity || (this.bytes && this.heldBytes > this.bytes.max))
      this.drop(this.entries.keys().next().value!);
  }

  /** What the entries hold, by the sizeOf measure (0 for a cache bounded by entries only). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.heldBytes };
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    if (key === this.newest) this.newest = undefined;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }
}
