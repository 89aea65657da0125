import { MemoryBuckets, MINUTE_MS, type BucketStore, type RatePolicy, type Take } from './bucket.js';
import { RedisBuckets, type RedisState } from './redis-buckets.js';
import { MemoryShares, type ShareStore } from './shares.js';

/** What /healthz says about the buckets. */
export interface LimiterStatus {
  readonly buckets: 'memory' | 'redis';
  /** With REDIS_URL: whether the shared buckets are in use, or this instance is on its own ones. */
  readonly redis?: RedisState;
}

/** The rate limiter the HTTP edge applies to every request (DESIGN §6). */
export interface RateLimiter {
  readonly free: RatePolicy;
  readonly keyed: RatePolicy;
  /** Proxy addresses whose X-Forwarded-For is believed (TENDED_TRUST_PROXY). */
  readonly trustProxy: ReadonlySet<string>;
  /** How long an API key lookup is believed: a revoke takes effect within this. */
  readonly keyCacheMs: number;
  take(client: string, policy: RatePolicy): Take | Promise<Take>;
  /** Spends `wanted` tokens or none (BucketStore.takeAll): an MCP batch's messages past the first. */
  takeAll(client: string, policy: RatePolicy, wanted: number, whole: number): Take | Promise<Take>;
  /** Up to `wanted` of the client's discovery share for the UTC `day` (shares.ts). */
  takeShare(client: string, day: string, wanted: number, share: number): Promise<number>;
  status(): LimiterStatus;
  /** Waits (at start) until the shared buckets answer; false at once when there are none. */
  waitForShared(ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  /** Requests per minute without a key, and with a valid one. */
  readonly free: number;
  readonly keyed: number;
  readonly redisUrl?: string | null;
  readonly trustProxy?: readonly string[];
  readonly keyCacheMs?: number;
  /** Defaults to a minute; tests shorten it to watch refills. */
  readonly windowMs?: number;
  readonly redisPrefix?: string;
  /** Told when the shared buckets are lost or back (the log). */
  readonly onRedisState?: (state: RedisState, error?: unknown) => void;
}

export const KEY_CACHE_MS = 30_000;

/**
 * In-process buckets, or Redis ones with a fallback: while Redis is unreachable each instance
 * serves from its own memory buckets (so the service stays up, with a per-instance budget), and it
 * goes back to Redis by itself once ioredis has reconnected.
 */
export function createRateLimiter(options: LimiterOptions): RateLimiter {
  const windowMs = options.windowMs ?? MINUTE_MS;
  const memory = new MemoryBuckets();
  const redis = options.redisUrl
    ? new RedisBuckets(options.redisUrl, { prefix: options.redisPrefix, onState: options.onRedisState })
    : null;
  const memoryShares = new MemoryShares();
  const fallback = redis ? new FallbackBuckets(redis, memory, memoryShares) : null;
  const buckets: BucketStore = fallback ?? memory;
  const shares: ShareStore = fallback ?? memoryShares;
  return {
    free: { name: 'free', limit: options.free, windowMs },
    keyed: { name: 'key', limit: options.keyed, windowMs },
    trustProxy: new Set((options.trustProxy ?? []).map(normaliseAddress)),
    keyCacheMs: options.keyCacheMs ?? KEY_CACHE_MS,
    take: (client, policy) => buckets.take(client, policy),
    takeAll: (client, policy, wanted, whole) => buckets.takeAll(client, policy, wanted, whole),
    takeShare: async (client, day, wanted, share) => shares.takeShare(client, day, wanted, share),
    status: () =>
      redis ? { buckets: redis.state === 'connected' ? 'redis' : 'memory', redis: redis.state } : { buckets: 'memory' },
    close: async () => {
      await redis?.close();
      await memory.close();
      memoryShares.clear();
    },
    waitForShared: async (ms) => (redis ? redis.waitUntilConnected(ms) : false),
  };
}

/** Redis while it answers, this process's memory meanwhile: for buckets and discovery shares alike. */
class FallbackBuckets implements BucketStore, ShareStore {
  constructor(
    private readonly redis: RedisBuckets,
    private readonly memory: MemoryBuckets,
    private readonly shares: MemoryShares,
  ) {}

  take(client: string, policy: RatePolicy): Take | Promise<Take> {
    if (this.redis.state !== 'connected') return this.memory.take(client, policy);
    // RedisBuckets reports a loss itself; this request and the next are served from memory.
    return this.redis.take(client, policy).catch(() => this.memory.take(client, policy));
  }

  takeAll(client: string, policy: RatePolicy, wanted: number, whole: number): Take | Promise<Take> {
    if (this.redis.state !== 'connected') return this.memory.takeAll(client, policy, wanted, whole);
    return this.redis
      .takeAll(client, policy, wanted, whole)
      .catch(() => this.memory.takeAll(client, policy, wanted, whole));
  }

  takeShare(client: string, day: string, wanted: number, share: number): number | Promise<number> {
    if (this.redis.state !== 'connected') return this.shares.takeShare(client, day, wanted, share);
    return this.redis
      .takeShare(client, day, wanted, share)
      .catch(() => this.shares.takeShare(client, day, wanted, share));
  }

  async close(): Promise<void> {
    await this.redis.close();
    await this.memory.close();
  }
}

/** `::ffff:10.0.0.1` (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
export function normaliseAddress(address: string): string {
  const a = address.trim().toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}
