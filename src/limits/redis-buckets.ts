import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  bucketName,
  clientHash,
  takeAllResult,
  takeResult,
  type BucketStore,
  type RatePolicy,
  type Take,
} from './bucket.js';
import { SHARE_SCRIPT, SHARE_TTL_MS } from './shares.js';

/**
 * One atomic spend of up to ARGV[3] tokens (the requests of one client queued in one turn of the
 * event loop); it answers how many were granted and the tokens before. With ARGV[4] = 1 it spends
 * all ARGV[3] or none (an MCP batch). Redis TIME is the clock, so every instance refills buckets from the same time;
 * the bucket (one string: tokens, a space, the time of the last spend in ms) expires once it would
 * be full again.
 * Tokens go back as a string: Lua numbers returned to Redis are truncated to integers.
 */
const TAKE_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local wanted = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tokens = limit
local held = redis.call('GET', KEYS[1])
if held then
  local sep = string.find(held, ' ', 1, true)
  local before = tonumber(string.sub(held, 1, sep - 1))
  local elapsed = now - tonumber(string.sub(held, sep + 1))
  if elapsed < 0 then elapsed = 0 end
  tokens = math.min(limit, before + elapsed * limit / window)
end
local before = tokens
local allowed = math.min(wanted, math.floor(tokens))
if ARGV[4] == '1' and allowed < wanted then allowed = 0 end
tokens = tokens - allowed
redis.call('SET', KEYS[1], tostring(tokens) .. ' ' .. tostring(now), 'PX', math.ceil((limit - tokens) * window / limit) + 1000)
return {allowed, tostring(before)}
`;

interface Queued {
  name: string;
  policy: RatePolicy;
  resolve: (take: Take) => void;
  reject: (error: unknown) => void;
}

export type RedisState = 'connecting' | 'connected' | 'unreachable';

export interface RedisBucketOptions {
  /** Key prefix: every bucket and the shared secret live under it. */
  readonly prefix?: string;
  /** Told each time Redis becomes reachable or unreachable (the log, /healthz). */
  readonly onState?: (state: RedisState, error?: unknown) => void;
}

type TakeCommand = (
  key: string,
  limit: number,
  windowMs: number,
  wanted: number,
  all: 0 | 1,
) => Promise<[number, string]>;
type ShareCommand = (key: string, wanted: number, share: number, ttlMs: number) => Promise<number>;

/**
 * Buckets in Redis, shared by every instance that names the same Redis and prefix. Commands fail at
 * once while Redis is down (no offline queue) and time out after COMMAND_TIMEOUT_MS, so a caller can
 * fall back instead of waiting; ioredis reconnects by itself.
 */
export class RedisBuckets implements BucketStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private secret: Uint8Array | null = null;
  private current: RedisState = 'connecting';
  private probe: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly names = new Map<string, string>();
  private queued: Queued[] = [];

  constructor(
    url: string,
    private readonly options: RedisBucketOptions = {},
  ) {
    this.prefix = options.prefix ?? 'tended:rl:';
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
      lazyConnect: false,
      // Spends issued in the same tick go out as one write: fewer system calls on both sides.
      enableAutoPipelining: true,
    });
    this.redis.defineCommand('tendedTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis.defineCommand('tendedShare', { numberOfKeys: 1, lua: SHARE_SCRIPT });
    this.redis.on('ready', () => void this.onReady());
    this.redis.on('close', () => this.setState('unreachable'));
    // ioredis emits 'error' on every failed reconnect; 'close' already reported the state.
    this.redis.on('error', () => {});
  }

  /** Whether a take will go to Redis now. */
  get state(): RedisState {
    return this.current;
  }

  /** Resolves once Redis answered, or after `ms` (the caller then serves from memory meanwhile). */
  async waitUntilConnected(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.current !== 'connected' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.current === 'connected';
  }

  take(client: string, policy: RatePolicy): Promise<Take> {
    if (this.current !== 'connected' || !this.secret) return Promise.reject(new Error('Redis is not connected'));
    const name = this.nameOf(client, policy, this.secret);
    return new Promise<Take>((resolve, reject) => {
      this.queued.push({ name, policy, resolve, reject });
      if (this.queued.length === 1) setImmediate(this.flush);
    });
  }

  /** Sent at once, apart from the turn's queue: an all-or-none spend is never merged with single ones. */
  async takeAll(client: string, policy: RatePolicy, wanted: number, whole: number): Promise<Take> {
    if (this.current !== 'connected' || !this.secret) throw new Error('Redis is not connected');
    const name = this.nameOf(client, policy, this.secret);
    const take = (this.redis as unknown as { tendedTake: TakeCommand }).tendedTake;
    try {
      const [, before] = await take.call(this.redis, name, policy.limit, policy.windowMs, wanted, 1);
      return takeAllResult(Number(before), wanted, whole, policy);
    } catch (error) {
      this.lost(error);
      throw error;
    }
  }

  /**
   * Up to `wanted` of the client's `share` for `day` (discovery's daily share): the count lives
   * under a keyed hash of the client, like its bucket, and expires SHARE_TTL_MS after its first use.
   */
  async takeShare(client: string, day: string, wanted: number, share: number): Promise<number> {
    if (this.current !== 'connected' || !this.secret) throw new Error('Redis is not connected');
    // Hashed on each ask (asks are few: discovery's), so the name cache holds buckets only.
    const name = `${this.prefix}share:${day}:${clientHash(this.secret, client)}`;
    const take = (this.redis as unknown as { tendedShare: ShareCommand }).tendedShare;
    try {
      return Number(await take.call(this.redis, name, wanted, share, SHARE_TTL_MS));
    } catch (error) {
      this.lost(error);
      throw error;
    }
  }

  /**
   * Sends every spend queued during this turn of the event loop at once: with auto-pipelining they
   * leave in one write and come back in one read, and the requests of one client (a flood, say) are
   * one script call. Requests arrive one socket callback at a time; this waits for the turn's end.
   */
  private readonly flush = (): void => {
    const byBucket = new Map<string, Queued[]>();
    for (const q of this.queued) {
      const same = byBucket.get(q.name);
      if (same) same.push(q);
      else byBucket.set(q.name, [q]);
    }
    this.queued = [];
    const take = (this.redis as unknown as { tendedTake: TakeCommand }).tendedTake;
    for (const [name, waiting] of byBucket) {
      const policy = waiting[0]!.policy;
      take.call(this.redis, name, policy.limit, policy.windowMs, waiting.length, 0).then(
        ([granted, before]) => {
          // In queue order: the first `granted` requests spend a token each, the rest are refused.
          const tokens = Number(before);
          waiting.forEach((w, i) =>
            w.resolve(
              i < granted ? takeResult(true, tokens - (i + 1), policy) : takeResult(false, tokens - granted, policy),
            ),
          );
        },
        (error: unknown) => {
          this.lost(error);
          for (const w of waiting) w.reject(error);
        },
      );
    }
  };

  /**
   * Bucket names of recent clients, kept in memory (where an address may live) so a client's keyed
   * hash is computed once, not on every request.
   */
  private nameOf(client: string, policy: RatePolicy, secret: Uint8Array): string {
    const id = `${policy.name}:${client}`;
    let name = this.names.get(id);
    if (name === undefined) {
      if (this.names.size >= NAME_CACHE_ENTRIES) this.names.clear();
      name = this.prefix + bucketName(secret, policy, client);
      this.names.set(id, name);
    }
    return name;
  }

  /**
   * A reset or a time-out: the callers serve from memory until Redis answers again. A closed
   * connection comes back through 'ready'; a connection that is open but silent is probed.
   */
  private lost(error: unknown): void {
    this.setState('unreachable', error);
    if (this.redis.status === 'ready') this.probeSoon();
  }

  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.probe);
    this.redis.disconnect();
    return Promise.resolve();
  }

  private probeSoon(): void {
    if (this.probe || this.closed) return;
    this.probe = setTimeout(() => {
      this.probe = undefined;
      if (this.current === 'connected' || this.closed) return;
      this.redis.ping().then(
        () => this.onReady(),
        () => {
          if (this.redis.status === 'ready') this.probeSoon();
        },
      );
    }, PROBE_MS);
    this.probe.unref();
  }

  /**
   * Every instance must name a client's bucket alike, so the secret of the keyed hash lives in Redis
   * itself (set once by whichever instance comes first), next to the buckets it names. It is read
   * again on every reconnect: a Redis restarted empty gets a new one, and new (full) buckets.
   */
  private async onReady(): Promise<void> {
    try {
      const key = `${this.prefix}secret`;
      await this.redis.set(key, randomBytes(32).toString('base64'), 'NX');
      const secret = await this.redis.get(key);
      if (!secret) throw new Error('the bucket secret vanished from Redis');
      this.secret = Buffer.from(secret, 'base64');
      this.names.clear();
      this.setState('connected');
    } catch (error) {
      this.setState('unreachable', error);
    }
  }

  private setState(state: RedisState, error?: unknown): void {
    // Closing on purpose (at shutdown) is not Redis going away.
    if (state === this.current || this.closed) return;
    this.current = state;
    this.options.onState?.(state, error);
  }
}

const COMMAND_TIMEOUT_MS = 500;
const PROBE_MS = 1_000;
const NAME_CACHE_ENTRIES = 10_000;
