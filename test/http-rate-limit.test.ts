import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '../src/limits/limiter.js';
import { createApiKey, revokeApiKey } from '../src/operations/api-keys.js';
import { limitedApp } from './support/limits.js';
import { jsonOf, type DetailAnswer, type Json } from './support/json.js';
import { sqliteTestStore, type TestStore } from './support/record.js';
import { dropPrefix, REDIS_URL, throwawayRedis, uniquePrefix } from './support/redis.js';

/** What the test reads of /healthz: the rate limiter's part. */
interface HealthAnswer {
  rate_limit: Json;
}

let t: TestStore;
const limiters: RateLimiter[] = [];
const prefixes: string[] = [];
beforeEach(async () => {
  t = await sqliteTestStore();
});
afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
  for (const p of prefixes.splice(0)) await dropPrefix(REDIS_URL, p);
  await t.dispose();
});

type Buckets = 'memory' | 'redis';
async function app(buckets: Buckets, options: Parameters<typeof limitedApp>[1] = {}) {
  const redis = buckets === 'redis' ? { redisUrl: REDIS_URL, redisPrefix: uniquePrefix() } : {};
  if (redis.redisPrefix) prefixes.push(redis.redisPrefix);
  const made = limitedApp(t.store, { ...redis, ...options });
  limiters.push(made.limiter);
  if (buckets === 'redis' && !(await made.limiter.waitForShared(3_000)))
    throw new Error(`Redis at ${REDIS_URL} does not answer; the Redis suites need it`);
  return made;
}

describe.each<Buckets>(['memory', 'redis'])('rate limit with %s buckets', (buckets) => {
  it('answers 60 requests in a minute, then a 429 with Retry-After, JSON detail and the RateLimit headers', async () => {
    const { app: a } = await app(buckets);
    for (let i = 1; i <= 60; i++) {
      const r = await a.request('/api/v1/entity/acme/x');
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-policy')).toBe('"free";q=60;w=60');
      expect(r.headers.get('ratelimit')).toMatch(new RegExp(`^"free";r=${60 - i};t=\\d+$`));
    }
    const refused = await a.request('/api/v1/entity/acme/x');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('ratelimit')).toMatch(/^"free";r=0;t=\d+$/);
    expect((await jsonOf<DetailAnswer>(refused)).detail).toMatch(
      /limit is 60 per 60 seconds.*Try again in 1 s.*X-API-Key/,
    );
  });

  it('puts the headers on every answer: errors, not-found, the log, health, a bare Response', async () => {
    const { app: a } = await app(buckets);
    // A route that builds its own Response (as a transport library may) gets them too.
    a.get('/test-bare', () => new Response('bare', { headers: { 'content-type': 'text/plain' } }));
    const bare = await a.request('/test-bare');
    expect(await bare.text()).toBe('bare');
    expect(bare.headers.get('ratelimit')).toMatch(/^"free";r=59;t=\d+$/);
    // A malformed request is counted and told its budget too.
    const malformed = await a.request('/api/v1/entity/acme/x', {
      method: 'DELETE',
      body: 'x',
      headers: { 'content-length': '1' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('ratelimit')).toMatch(/^"free";r=58;t=\d+$/);
    for (const path of [
      '/api/v1/entity/acme/x?as_of=2025-02-30',
      '/nowhere',
      '/api/chain/head',
      '/healthz',
      '/api/v1/docs',
      '/api/chain/checkpoint',
    ]) {
      const r = await a.request(path);
      expect(r.headers.get('ratelimit'), path).toMatch(/^"free";r=\d+;t=\d+$/);
      expect(r.headers.get('ratelimit-policy'), path).toBe('"free";q=60;w=60');
    }
  });

  it('refills as the bucket says', async () => {
    // 5 a second: one token every 200 ms.
    const { app: a } = await app(buckets, { free: 5, windowMs: 1_000 });
    for (let i = 0; i < 5; i++) expect((await a.request('/healthz')).status).toBe(200);
    const emptied = performance.now();
    expect((await a.request('/healthz')).status).toBe(429);
    await sleep(450);
    const before = performance.now() - emptied;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.request('/healthz')).status);
    const after = performance.now() - emptied;
    // Two tokens after 450 ms (one more only if the machine stalled past 600 ms), then refusals.
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(Math.min(2, Math.floor(before / 200)));
    expect(served).toBeLessThanOrEqual(Math.floor(after / 200) + 1);
    expect(statuses.slice(0, served).every((s) => s === 200) && statuses.slice(served).every((s) => s === 429)).toBe(
      true,
    );
    expect(statuses.at(-1)).toBe(429);
  });

  it('gives a keyed client a budget of 600, apart from the free budget', async () => {
    // Per hour rather than per minute, so nothing refills while a loaded machine sends the 601.
    const { app: a } = await app(buckets, { windowMs: 3_600_000 });
    const { key } = await createApiKey(t.store, 'test client', new Date());
    const statuses = await Promise.all(
      Array.from({ length: 601 }, () =>
        Promise.resolve(a.request('/healthz', { headers: { 'X-API-Key': key } })).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(600);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    const last = await a.request('/healthz', { headers: { 'X-API-Key': key } });
    expect(last.headers.get('ratelimit-policy')).toBe('"key";q=600;w=3600');
    expect(last.headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+$/);
    // The same client without its key is still within the free limit.
    expect((await a.request('/healthz')).status).toBe(200);
  });
});

describe('API keys at the edge', () => {
  it('answers 401 naming the problem for a malformed, an unknown and a revoked key, even when the free budget is spent', async () => {
    const { app: a } = await app('memory', { free: 2, keyCacheMs: 300 });
    const { key, record } = await createApiKey(t.store, null, new Date());
    expect((await a.request('/healthz', { headers: { 'X-API-Key': key } })).status).toBe(200);
    for (let i = 0; i < 3; i++) await a.request('/healthz');
    const malformed = await a.request('/healthz', { headers: { 'X-API-Key': 'definitely-not-a-key' } });
    expect(malformed.status).toBe(401);
    expect((await jsonOf<DetailAnswer>(malformed)).detail).toMatch(/not a Tended API key/);
    const unknown = await a.request('/healthz', { headers: { 'X-API-Key': `tnd_${'A'.repeat(43)}` } });
    expect(unknown.status).toBe(401);
    expect((await jsonOf<DetailAnswer>(unknown)).detail).toMatch(/names no key this service issued/);
    expect(unknown.headers.get('ratelimit')).toMatch(/^"free";r=0;/);

    await revokeApiKey(t.store, record.id, new Date());
    // A revoke takes effect within the key cache's bound (300 ms here, 30 s in service).
    await sleep(350);
    const revoked = await a.request('/healthz', { headers: { 'X-API-Key': key } });
    expect(revoked.status).toBe(401);
    expect((await jsonOf<DetailAnswer>(revoked)).detail).toMatch(new RegExp(`${record.id} was revoked`));
  });

  it('answers 503 JSON, not a 500, when the key cannot be checked', async () => {
    const { app: a } = await app('memory');
    const key = (await createApiKey(t.store, null, new Date())).key;
    await t.store.close();
    const r = await a.request('/api/v1/entity/acme/x', { headers: { 'X-API-Key': key } });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect((await jsonOf<DetailAnswer>(r)).detail).toMatch(/could not check the API key/);
  });
});

describe('two instances sharing Redis', () => {
  it('enforce one budget within ±5 % over 1,000 requests', async () => {
    const prefix = uniquePrefix();
    // 400 an hour: what refills during the run stays far below the ±5 % being measured.
    const one = await app('redis', { free: 400, redisPrefix: prefix, windowMs: 3_600_000 });
    const two = await app('redis', { free: 400, redisPrefix: prefix, windowMs: 3_600_000 });
    let served = 0;
    const started = performance.now();
    for (let i = 0; i < 1_000; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          Promise.resolve(((i + j) % 2 ? one : two).app.request('/healthz')).then((r) => r.status),
        ),
      );
      served += batch.filter((s) => s === 200).length;
    }
    const seconds = (performance.now() - started) / 1000;
    // One budget of 400, plus what refilled during the run; two separate budgets would have served 800.
    expect(served).toBeGreaterThanOrEqual(400 * 0.95);
    expect(served).toBeLessThanOrEqual(400 * 1.05);
    expect(served).toBeLessThanOrEqual(400 + Math.ceil((seconds * 400) / 3600) + 1);
  });
});

describe('Redis stopped mid-run', () => {
  it('keeps serving on in-process buckets, says so in /healthz, and goes back to Redis by itself', async () => {
    const redis = await throwawayRedis();
    try {
      const { app: a } = await app('memory', { free: 5, redisUrl: redis.url, redisPrefix: 'tended:rl:' });
      const limiter = limiters.at(-1)!;
      expect(await limiter.waitForShared(3_000)).toBe(true);
      const health = async () => (await jsonOf<HealthAnswer>(await a.request('/healthz'))).rate_limit;
      expect(await health()).toEqual({ buckets: 'redis', redis: 'connected' });
      const probe = new Redis(redis.url);
      expect((await probe.keys('tended:rl:free:*')).length).toBe(1);
      probe.disconnect();

      await redis.stop();
      // The first request after the loss may be the one that finds it; every answer is still a real one.
      const during: number[] = [];
      const started = performance.now();
      for (let i = 0; i < 6; i++) during.push((await a.request('/api/v1/entity/acme/x')).status);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(during.every((s) => s === 200 || s === 429)).toBe(true);
      expect(during.at(-1)).toBe(429); // the in-process bucket still limits
      // The free budget of 5 is spent and /healthz is rate-limited too, so from here the limiter is
      // read directly; test/faults.test.ts reads /healthz over HTTP from the real serve process
      // through the same outage (down, memory, then back to redis).
      expect(limiter.status()).toEqual({ buckets: 'memory', redis: 'unreachable' });

      await redis.start();
      const deadline = Date.now() + 5_000;
      while (limiter.status().buckets !== 'redis' && Date.now() < deadline) await sleep(50);
      expect(limiter.status()).toEqual({ buckets: 'redis', redis: 'connected' });
      // Redis came back empty: a fresh shared bucket, and the request is counted there.
      const after = await a.request('/api/v1/entity/acme/x');
      expect(after.status).toBe(200);
      expect(after.headers.get('ratelimit')).toMatch(/^"free";r=4;/);
      const again = new Redis(redis.url);
      expect((await again.keys('tended:rl:free:*')).length).toBe(1);
      again.disconnect();
    } finally {
      await redis.stop();
    }
  });
});
