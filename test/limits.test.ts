import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBuckets, MINUTE_MS, type BucketStore, type RatePolicy } from '../src/limits/bucket.js';
import { RedisBuckets } from '../src/limits/redis-buckets.js';
import { MemoryShares } from '../src/limits/shares.js';
import { dropPrefix, REDIS_URL, uniquePrefix } from './support/redis.js';

const perMinute = (limit: number): RatePolicy => ({ name: 'free', limit, windowMs: MINUTE_MS });

describe('in-process buckets', () => {
  let clock = 0;
  const buckets = new MemoryBuckets(() => clock);
  afterEach(() => {
    clock += 10 * MINUTE_MS;
  });

  it('grants 60 requests in a minute and refuses the 61st, telling when a token is back', () => {
    const policy = perMinute(60);
    for (let i = 0; i < 60; i++) expect(buckets.take('ip:203.0.113.1', policy).allowed).toBe(true);
    const refused = buckets.take('ip:203.0.113.1', policy);
    expect(refused).toEqual({ policy, allowed: false, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 });
    // Another client has its own bucket.
    expect(buckets.take('ip:203.0.113.2', policy).remaining).toBe(59);
  });

  it('refills one token per second at 60 a minute, never above the limit', () => {
    const policy = perMinute(60);
    for (let i = 0; i < 60; i++) buckets.take('ip:a', policy);
    clock += 999;
    expect(buckets.take('ip:a', policy).allowed).toBe(false);
    clock += 2_001; // three seconds since the bucket emptied: three tokens
    const grants = [];
    for (let i = 0; i < 4; i++) grants.push(buckets.take('ip:a', policy).allowed);
    expect(grants).toEqual([true, true, true, false]);
    clock += 5 * MINUTE_MS;
    expect(buckets.take('ip:a', policy).remaining).toBe(59);
  });

  it('spends a batch all or none, and tells when the whole of it would fit', () => {
    const policy = perMinute(60);
    for (let i = 0; i < 10; i++) buckets.take('ip:b', policy);
    expect(buckets.takeAll('ip:b', policy, 49, 50)).toMatchObject({ allowed: true, remaining: 1 });
    // One token left, six wanted by the request when sent again: five seconds at one a second.
    expect(buckets.takeAll('ip:b', policy, 5, 6)).toEqual({
      policy,
      allowed: false,
      remaining: 1,
      retryAfterSeconds: 5,
      resetSeconds: 59,
    });
    expect(buckets.take('ip:b', policy), 'a refused batch spent nothing').toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it('forgets buckets that are full again, so distinct clients do not pile up', async () => {
    const fresh = new MemoryBuckets(() => clock);
    for (let i = 0; i < 1_000; i++) fresh.take(`ip:198.51.100.${i}`, perMinute(60));
    expect(fresh.size).toBe(1_000);
    clock += MINUTE_MS;
    fresh.sweep();
    expect(fresh.size).toBe(0);
    await fresh.close();
  });
});

describe('in-process discovery shares', () => {
  it('grants each client its share of the day, and afresh the next day', () => {
    const shares = new MemoryShares();
    expect(shares.takeShare('ip:a', '2026-11-22', 3, 5)).toBe(3);
    expect(shares.takeShare('ip:a', '2026-11-22', 3, 5)).toBe(2);
    expect(shares.takeShare('ip:a', '2026-11-22', 1, 5)).toBe(0);
    expect(shares.takeShare('key:k1', '2026-11-22', 9, 5)).toBe(5);
    expect(shares.takeShare('ip:a', '2026-11-23', 4, 5)).toBe(4);
    // Yesterday is forgotten; an ask dated yesterday but counted after midnight spends today's share.
    expect(shares.size).toBe(1);
    expect(shares.takeShare('ip:a', '2026-11-22', 4, 5)).toBe(1);
  });
});

describe('Redis buckets', () => {
  const open: BucketStore[] = [];
  const prefixes: string[] = [];
  const redisBuckets = async (prefix: string) => {
    const b = new RedisBuckets(REDIS_URL, { prefix });
    open.push(b);
    if (!(await b.waitUntilConnected(3_000)))
      throw new Error(`Redis at ${REDIS_URL} does not answer; the Redis suites need it`);
    return b;
  };
  afterEach(async () => {
    for (const b of open.splice(0)) await b.close();
    for (const p of prefixes.splice(0)) await dropPrefix(REDIS_URL, p);
  });
  const prefix = () => {
    const p = uniquePrefix();
    prefixes.push(p);
    return p;
  };

  it('grants 60 requests in a minute and refuses the 61st', async () => {
    const buckets = await redisBuckets(prefix());
    const policy = perMinute(60);
    const results = [];
    for (let i = 0; i < 61; i++) results.push(await buckets.take('ip:203.0.113.1', policy));
    expect(results.slice(0, 60).every((r) => r.allowed)).toBe(true);
    expect(results[59]!.remaining).toBe(0);
    expect(results[60]).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
  });

  it('answers a burst from one client in one script call, each request with its own remaining count', async () => {
    const buckets = await redisBuckets(prefix());
    const policy: RatePolicy = { name: 'free', limit: 10, windowMs: 3_600_000 };
    const burst = await Promise.all(Array.from({ length: 15 }, () => buckets.take('ip:203.0.113.5', policy)));
    expect(burst.map((t) => t.allowed)).toEqual([...Array<boolean>(10).fill(true), ...Array<boolean>(5).fill(false)]);
    expect(burst.slice(0, 10).map((t) => t.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(burst[14]).toMatchObject({ allowed: false, remaining: 0 });
    expect((await buckets.take('ip:203.0.113.5', policy)).allowed).toBe(false);
  });

  it('refills as the bucket says, on Redis time', async () => {
    const buckets = await redisBuckets(prefix());
    const policy: RatePolicy = { name: 'free', limit: 10, windowMs: 1_000 }; // one token per 100 ms
    for (let i = 0; i < 10; i++) expect((await buckets.take('ip:a', policy)).allowed).toBe(true);
    const emptied = performance.now();
    expect((await buckets.take('ip:a', policy)).allowed).toBe(false);
    await sleep(250);
    const before = performance.now() - emptied;
    const grants = [];
    for (let i = 0; i < 5; i++) grants.push((await buckets.take('ip:a', policy)).allowed);
    const after = performance.now() - emptied;
    // Two tokens after 250 ms (more only if the machine stalled), then refusals.
    const served = grants.filter(Boolean).length;
    expect(served).toBeGreaterThanOrEqual(Math.min(2, Math.floor(before / 100)));
    expect(served).toBeLessThanOrEqual(Math.floor(after / 100) + 1);
    expect(grants.at(-1)).toBe(false);
    await sleep(1_100);
    expect((await buckets.take('ip:a', policy)).remaining).toBe(9);
  });

  it('keeps buckets under a keyed hash of the client, each with a TTL, and no client address in Redis', async () => {
    const p = prefix();
    const buckets = await redisBuckets(p);
    await buckets.take('ip:203.0.113.77', perMinute(60));
    await buckets.take('ip:2001:db8::77', perMinute(60));
    const redis = new Redis(REDIS_URL);
    try {
      const keys = (await redis.keys(`${p}*`)).sort();
      expect(keys).toHaveLength(3); // two buckets and the shared secret
      const bucketKeys = keys.filter((k) => !k.endsWith('secret'));
      for (const key of bucketKeys) {
        expect(key).not.toMatch(/203\.0\.113|2001:db8/);
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(2 * MINUTE_MS);
        expect(await redis.get(key)).toMatch(/^[\d.]+ \d+$/);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('spends a batch all or none, on Redis time', async () => {
    const buckets = await redisBuckets(prefix());
    const policy: RatePolicy = { name: 'free', limit: 60, windowMs: 3_600_000 };
    await buckets.take('ip:b', policy);
    expect(await buckets.takeAll('ip:b', policy, 59, 60)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await buckets.takeAll('ip:b', policy, 3, 4);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // Four tokens at one a minute, less the moment that passed.
    expect(refused.retryAfterSeconds).toBeGreaterThan(230);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(240);
  });

  it('grants a client’s discovery share once across instances, under a keyed hash with a TTL', async () => {
    const p = prefix();
    const [a, b] = [await redisBuckets(p), await redisBuckets(p)];
    const grants = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).takeShare('ip:203.0.113.8', '2026-11-22', 1, 10)),
    );
    expect(grants.reduce((sum, n) => sum + n, 0)).toBe(10);
    expect(await a.takeShare('ip:203.0.113.8', '2026-11-23', 4, 10), 'a new day').toBe(4);
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${p}share:*`);
      expect(keys).toHaveLength(2);
      for (const key of keys) {
        expect(key).not.toContain('203.0.113');
        expect(await redis.pttl(key)).toBeGreaterThan(24 * 60 * MINUTE_MS);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('lets two instances on one Redis spend one budget', async () => {
    const p = prefix();
    const [a, b] = [await redisBuckets(p), await redisBuckets(p)];
    const policy: RatePolicy = { name: 'free', limit: 200, windowMs: 3_600_000 }; // an hour: nothing refills meanwhile
    let allowed = 0;
    for (let i = 0; i < 400; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, j) => (j % 2 ? a : b).take('ip:203.0.113.9', policy)),
      );
      allowed += batch.filter((r) => r.allowed).length;
    }
    expect(allowed).toBeGreaterThanOrEqual(200);
    expect(allowed).toBeLessThanOrEqual(201);
  });
});
