import { createHmac } from 'node:crypto';

/**
 * A token bucket: `limit` tokens, refilled continuously at `limit` per `windowMs`. A request spends
 * one token; an empty bucket refuses. The bucket of a client seen for the first time is full.
 */
export interface RatePolicy {
  /** The name the RateLimit-Policy header gives the policy: `free` or `key`. */
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

/** One spend from a bucket, and what the client may know about its budget afterwards. */
export interface Take {
  /** The policy the token came from (the headers name it). */
  readonly policy: RatePolicy;
  readonly allowed: boolean;
  /** Whole tokens left after this request. */
  readonly remaining: number;
  /** Seconds until one token is back (0 while tokens remain): the 429's Retry-After. */
  readonly retryAfterSeconds: number;
  /** Seconds until the bucket is full again: the RateLimit header's `t`. */
  readonly resetSeconds: number;
}

/** Where buckets live: this process's memory, or Redis shared by every instance. */
export interface BucketStore {
  /** In-process buckets answer at once; Redis ones with a promise. */
  take(client: string, policy: RatePolicy): Take | Promise<Take>;
  /**
   * Spends `wanted` tokens at once, or none when fewer are left (an MCP batch is run whole or not
   * at all). A refusal's Retry-After is when `whole` tokens are back: what the request costs when
   * it is sent again, the token its admission spent included.
   */
  takeAll(client: string, policy: RatePolicy, wanted: number, whole: number): Take | Promise<Take>;
  close(): Promise<void>;
}

export const MINUTE_MS = 60_000;

/** The arithmetic both stores share (the Redis script does the same in Lua): tokens after refill. */
export function refill(tokens: number, elapsedMs: number, policy: RatePolicy): number {
  return Math.min(policy.limit, tokens + (Math.max(0, elapsedMs) * policy.limit) / policy.windowMs);
}

/** What a client is told, from the tokens left after its request. */
export function takeResult(allowed: boolean, tokens: number, policy: RatePolicy): Take {
  const msPerToken = policy.windowMs / policy.limit;
  return {
    policy,
    allowed,
    remaining: Math.floor(tokens),
    retryAfterSeconds: tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - tokens) * msPerToken) / 1000)),
    resetSeconds: Math.ceil(((policy.limit - tokens) * msPerToken) / 1000),
  };
}

/** The spend of `wanted` tokens out of `tokens` (after refill): all of them, or a refusal that waits for `whole`. */
export function takeAllResult(tokens: number, wanted: number, whole: number, policy: RatePolicy): Take {
  if (tokens >= wanted) return takeResult(true, tokens - wanted, policy);
  const refused = takeResult(false, tokens, policy);
  const msPerToken = policy.windowMs / policy.limit;
  return { ...refused, retryAfterSeconds: Math.max(1, Math.ceil(((whole - tokens) * msPerToken) / 1000)) };
}

/** The RateLimit header's value (draft-ietf-httpapi-ratelimit-headers): the policy, tokens left, seconds until full. */
export function rateLimitValue(take: Take): string {
  return `"${take.policy.name}";r=${take.remaining};t=${take.resetSeconds}`;
}

/**
 * A bucket's name from a client address or key id: a keyed hash, so neither memory dumps nor Redis
 * hold a client IP, and without the secret the names cannot be matched back to addresses.
 */
export function bucketName(secret: Uint8Array, policy: RatePolicy, client: string): string {
  return `${policy.name}:${clientHash(secret, client)}`;
}

/** The keyed hash that stands for a client (address or key id) wherever it is kept outside this process. */
export function clientHash(secret: Uint8Array, client: string): string {
  return createHmac('sha256', secret).update(client).digest('base64url').slice(0, 22);
}

/** Memory entries checked for a full (hence forgettable) bucket at most this often. */
const SWEEP_MS = 30_000;
/** About 30 MB of buckets at most. */
const MAX_BUCKETS = 200_000;

/**
 * Buckets in this process's memory: the default, and the fallback while Redis is unreachable.
 * A bucket untouched for a whole window is full again, so it is dropped rather than kept. Buckets
 * are named by the client itself: memory is where DESIGN §3 lets an address live, and a keyed
 * hash per request would cost more than the rest of the limiter.
 */
export class MemoryBuckets implements BucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number; windowMs: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  take(client: string, policy: RatePolicy): Take {
    const name = `${policy.name}:${client}`;
    const now = this.now();
    const bucket = this.buckets.get(name);
    let tokens = bucket ? refill(bucket.tokens, now - bucket.at, policy) : policy.limit;
    const allowed = tokens >= 1;
    if (allowed) tokens -= 1;
    this.keep(name, bucket, tokens, now, policy);
    return takeResult(allowed, tokens, policy);
  }

  takeAll(client: string, policy: RatePolicy, wanted: number, whole: number): Take {
    const name = `${policy.name}:${client}`;
    const now = this.now();
    const bucket = this.buckets.get(name);
    const tokens = bucket ? refill(bucket.tokens, now - bucket.at, policy) : policy.limit;
    const take = takeAllResult(tokens, wanted, whole, policy);
    this.keep(name, bucket, take.allowed ? tokens - wanted : tokens, now, policy);
    return take;
  }

  private keep(
    name: string,
    bucket: { tokens: number; at: number } | undefined,
    tokens: number,
    now: number,
    policy: RatePolicy,
  ): void {
    if (bucket) {
      bucket.tokens = tokens;
      bucket.at = now;
    } else {
      if (this.buckets.size >= MAX_BUCKETS) this.makeRoom();
      // windowMs rides along so the sweep knows when this bucket is full again.
      this.buckets.set(name, { tokens, at: now, windowMs: policy.windowMs });
    }
  }

  /** How many buckets are held (for tests: forgotten buckets must not pile up). */
  get size(): number {
    return this.buckets.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [name, bucket] of this.buckets) {
      if (now - bucket.at >= bucket.windowMs) this.buckets.delete(name);
    }
  }

  /**
   * Many distinct clients within one window (say, an IPv6 sweep): forget the full buckets, then the
   * oldest tenth. A forgotten bucket starts full again, which errs towards serving.
   */
  private makeRoom(): void {
    this.sweep();
    if (this.buckets.size < MAX_BUCKETS) return;
    let drop = Math.ceil(MAX_BUCKETS / 10);
    for (const name of this.buckets.keys()) {
      if (drop-- <= 0) break;
      this.buckets.delete(name);
    }
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.buckets.clear();
    return Promise.resolve();
  }
}
