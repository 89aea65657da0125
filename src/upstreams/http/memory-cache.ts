import type { ConditionalCache, ConditionalEntry } from './ports.js';

/** A ConditionalCache held in memory: for tests, the simulator demo and one-off reads. */
export class MemoryConditionalCache implements ConditionalCache {
  private readonly entries = new Map<string, ConditionalEntry>();

  get(url: string): Promise<ConditionalEntry | null> {
    const entry = this.entries.get(url);
    // A copy, so a reader that changes what it got cannot change what a 304 later re-confirms.
    return Promise.resolve(entry ? structuredClone(entry) : null);
  }

  set(url: string, entry: ConditionalEntry): Promise<void> {
    this.entries.set(url, structuredClone(entry));
    return Promise.resolve();
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
