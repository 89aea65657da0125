import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { hotReads } from '../src/http/hot-path.js';
import { hotEntityAnswers } from '../src/http/hot-entity.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { entityAnswerCache } from '../src/operations/read-entity.js';
import { closedSources } from './support/limits.js';
import { jsonOf, type DetailAnswer, type ValidationAnswer } from './support/json.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

// The hot path answers cached entity reads before the framework: over real HTTP on loopback, its
// answers must be the framework's, header for header, and it must spend the same rate-limit budget.
let t: TestStore;
let limiter: RateLimiter;
let server: Server;
let base: string;
/** Requests the hot path handed to the framework. */
let handedOver: number;

async function start(free: number) {
  t = await sqliteTestStore();
  const deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [
      githubObservation('acme/rocket', '2026-06-01', 'alive'),
      githubObservation('acme/rocket', '2026-11-20', 'dormant'),
    ],
    deps.notary.seal,
  );
  limiter = createRateLimiter({ free, keyed: 1000 });
  const answers = entityAnswerCache(1024 * 1024);
  const app = build({ ...deps, sources: closedSources(), logError: () => {}, limiter, entityAnswers: answers });
  const framework = getRequestListener(app.fetch);
  handedOver = 0;
  const listener = hotReads({ limiter, providers: [hotEntityAnswers(deps, answers)] })((req, res) => {
    handedOver++;
    return framework(req, res);
  });
  server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await limiter.close();
  await t.dispose();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

/** Every header but those that differ from one answer to the next by nature (the date, the budget left). */
const stable = (headers: Headers) =>
  [...headers].filter(([name]) => name !== 'date' && name !== 'ratelimit').sort(([a], [b]) => a.localeCompare(b));

describe('the hot path', () => {
  beforeEach(() => start(100));

  it.each(['/api/v1/entity/acme/rocket', '/api/v1/entity/acme/rocket?as_of=2026-07-01'])(
    'answers a read of %s with the framework’s bytes and headers, computed or cached',
    async (path) => {
      // The first read is computed on the hot path and cached there.
      const hot = await get(path);
      const hotBody = Buffer.from(await hot.arrayBuffer());
      expect(handedOver).toBe(0);
      // A query parameter the hot path does not read sends the same read to the framework.
      const framed = await get(`${path}${path.includes('?') ? '&' : '?'}unread=1`);
      const framedBody = Buffer.from(await framed.arrayBuffer());
      expect(handedOver).toBe(1);
      expect(hot.status).toBe(200);
      expect(hotBody.equals(framedBody)).toBe(true);
      expect(stable(hot.headers)).toEqual(stable(framed.headers));
      expect(hot.headers.get('content-length')).toBe(String(framedBody.length));
      expect(hot.headers.get('cache-control')).toBe(
        path.includes('as_of') ? 'public, max-age=86400' : 'public, max-age=60',
      );
      expect(hot.headers.get('ratelimit')).toMatch(/^"free";r=99;t=\d+$/);

      // From the cache now, the same bytes.
      const again = await get(path);
      expect(Buffer.from(await again.arrayBuffer()).equals(hotBody)).toBe(true);
      expect(again.headers.get('etag')).toBe(hot.headers.get('etag'));

      const revalidated = await get(path, { 'If-None-Match': hot.headers.get('etag')! });
      expect(handedOver).toBe(1);
      expect(revalidated.status).toBe(304);
      expect(await revalidated.text()).toBe('');
      expect(revalidated.headers.get('etag')).toBe(hot.headers.get('etag'));
      expect(revalidated.headers.get('access-control-allow-origin')).toBe('*');
    },
  );

  it('answers a new observation at once, under a new tag', async () => {
    const before = await get('/api/v1/entity/acme/rocket');
    expect((await jsonOf<{ state: string }>(before)).state).toBe('dormant');
    await t.store.appendObservations(
      [githubObservation('acme/rocket', '2026-11-22', 'archived')],
      recordDeps(t.store, '2026-11-22T12:00:00Z').notary.seal,
    );
    const after = await get('/api/v1/entity/acme/rocket', { 'If-None-Match': before.headers.get('etag')! });
    expect(after.status).toBe(200);
    expect((await jsonOf<{ state: string }>(after)).state).toBe('archived');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(handedOver).toBe(0);
  });

  it('hands a request with a Host the framework refuses to the framework, which answers 400', async () => {
    await get('/api/v1/entity/acme/rocket');
    const port = new URL(base).port;
    for (const [host, status] of [
      ['bad host', 400],
      ['x/y', 400],
      [`LOCALHOST:${port}`, 200],
    ] as const) {
      const before = handedOver;
      const answered = await new Promise<number>((resolve, reject) => {
        const req = request(`${base}/api/v1/entity/acme/rocket`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(answered, host).toBe(status);
      expect(handedOver, host).toBe(before + 1);
    }
  });

  it('hands a component the record does not hold to the framework, which queues it', async () => {
    const res = await get('/api/v1/entity/acme/unheld');
    expect(res.status).toBe(200);
    expect(handedOver).toBe(1);
    expect(await jsonOf<{ state: string; note: string }>(res)).toMatchObject({ state: 'not_observed' });
  });

  it('hands the framework what it does not answer, which explains it as before', async () => {
    await get('/api/v1/entity/acme/rocket');
    const cases = [
      ['/api/v1/entity/acme/rocket?as_of=2026-13-01', 422],
      ['/api/v1/entity/acme/rocket?as_of=2026-11-23', 422],
      ['/api/v1/entity/-bad-/rocket', 422],
      ['/api/v1/entity/acme/rocket?as_of=2026-07-01&x=1', 200],
      ['/api/v1/entity/acme/rocket/', 308],
    ] as const;
    for (const [path, status] of cases) {
      const before = handedOver;
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(status);
      expect(handedOver, path).toBe(before + 1);
      if (status === 422) {
        const body = await jsonOf<ValidationAnswer>(res);
        expect(body.detail[0]!.msg.length, path).toBeGreaterThan(10);
        expect(res.headers.get('cache-control'), path).toBe('no-store');
      }
    }
    // A key goes to the framework, which checks it.
    const keyed = await get('/api/v1/entity/acme/rocket', { 'X-API-Key': 'not-a-key' });
    expect(keyed.status).toBe(401);
    expect((await jsonOf<DetailAnswer>(keyed)).detail).toMatch(/X-API-Key/);
  });
});

describe('the hot path and the rate limit', () => {
  beforeEach(() => start(3));

  it('spends one token a request, hot or handed over, and refuses as the framework does', async () => {
    const path = '/api/v1/entity/acme/rocket';
    const budgets: (string | null)[] = [];
    for (let i = 0; i < 3; i++) budgets.push((await get(path)).headers.get('ratelimit'));
    expect(budgets.map((b) => b?.replace(/;t=\d+$/, ''))).toEqual(['"free";r=2', '"free";r=1', '"free";r=0']);
    const handedBefore = handedOver;
    const refused = await get(path);
    expect(refused.status).toBe(429);
    // The refusal is the framework's, with the spend the hot path made: one token, not two.
    expect(handedOver).toBe(handedBefore + 1);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('ratelimit')).toMatch(/^"free";r=0;t=\d+$/);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect((await jsonOf<DetailAnswer>(refused)).detail).toMatch(/^Too many requests: the limit is 3 per 60 seconds/);
  });
});
