/**
 * Discovery's daily share per client (DESIGN §8c): how many names one client (an API key, or an
 * address without one) may ask to queue in a UTC day, so no one client spends the deployment's
 * daily bound. Like the buckets, the counts live in this process's memory or in Redis with a TTL,
 * never in the database and never in a log: they are about clients, the record is about components.
 */

/** Where the shares live: memory answers at once, Redis with a promise. */
export interface ShareStore {
  /** Up to `wanted` of what is left of the client's `share` on `day`; answers how many it got. */
  takeShare(client: string, day: string, wanted: number, share: number): number | Promise<number>;
}

/**
 * A day's count in Redis lives a day and an hour after its first ask: long enough to outlast the
 * day it counts (the hour for clocks that differ between instances), then it goes by itself.
 */
export const SHARE_TTL_MS = 25 * 60 * 60 * 1000;

/**
 * Grants up to ARGV[1] of what is left of the share ARGV[2] and counts them, atomically, so two
 * instances never grant the same names twice; the count's TTL (ARGV[3] ms) starts with its first ask.
 */
export const SHARE_SCRIPT = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - used)
if grant <= 0 then return 0 end
redis.call('INCRBY', KEYS[1], grant)
if used == 0 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3])) end
return grant
`;

/** About 10 MB of counts at most; past it the oldest tenth is forgotten (those clients start afresh). */
const MAX_CLIENTS = 200_000;

/**
 * Shares in this process's memory: the default, and the fallback while Redis is unreachable. Only
 * the current day is kept: the first ask of a later day forgets the day before.
 */
export class MemoryShares implements ShareStore {
  private day = '';
  private readonly used = new Map<string, number>();

  takeShare(client: string, day: string, wanted: number, share: number): number {
    if (day > this.day) {
      this.day = day;
      this.used.clear();
    }
    // An ask dated before the current day (made a moment before midnight) counts against today.
    const used = this.used.get(client) ?? 0;
    const grant = Math.max(0, Math.min(wanted, share - used));
    if (grant > 0) {
      if (!this.used.has(client) && this.used.size >= MAX_CLIENTS) this.makeRoom();
      this.used.set(client, used + grant);
    }
    return grant;
  }

  /** How many clients are counted today (for tests: counts must not pile up). */
  get size(): number {
    return this.used.size;
  }

  private makeRoom(): void {
    let drop = Math.ceil(MAX_CLIENTS / 10);
    for (const client of this.used.keys()) {
      if (drop-- <= 0) break;
      this.used.delete(client);
    }
  }

  clear(): void {
    this.used.clear();
  }
}
