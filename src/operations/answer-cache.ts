/**
 * A bounded least-recently-used map for computed answers. Keys carry the version of the data an
 * answer was computed from (store.componentVersion), so an entry never goes stale: a new
 * observation changes the key, and the old entry simply ages out.
 */
export class AnswerCache<T> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly capacity: number) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Re-insert so Map order tracks recency; the first key is then the least recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
