import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen } from '../src/cli/serve.js';
import { build } from '../src/http/app.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { closedSources } from './support/limits.js';
import { jsonOf, type DetailAnswer, type Json } from './support/json.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

// HTTP caching of the data answers, over real HTTP on loopback: what a CDN in front would see.
let t: TestStore;
let deps: ReturnType<typeof recordDeps>;
let limiter: RateLimiter;
let server: ServerType;
let base: string;

beforeEach(async () => {
  t = await sqliteTestStore();
  deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  await t.store.appendObservations(
    [githubObservation('acme/rocket', '2026-06-01', 'alive'), githubObservation('acme/rocket', '2026-11-20', 'alive')],
    deps.notary.seal,
  );
  limiter = createRateLimiter({ free: 10_000, keyed: 10_000 });
  const app = build({ ...deps, sources: closedSources(), logError: () => {}, limiter });
  await new Promise<void>((resolve) => {
    server = listen(app.fetch, { port: 0, host: '127.0.0.1' }, () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await limiter.close();
  await t.dispose();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

const DATA_PATHS = [
  '/api/v1/entity/acme/rocket',
  '/api/v1/entity/acme/rocket?as_of=2026-07-01',
  '/api/v1/org/acme',
  '/api/v1/org/acme?as_of=2026-07-01',
  '/v1/trust_score/github/acme/rocket',
  '/v1/schema_history/github/acme/rocket',
  '/v1/dependency_risk/github/acme/rocket',
  '/api/chain/head',
  '/api/chain/checkpoint',
  '/api/chain/proof/inclusion?index=1&size=2',
  '/api/v1/changes',
];

describe('ETag and If-None-Match', () => {
  it.each(DATA_PATHS)('%s carries an ETag, and answers 304 with no body when the client holds it', async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const again = await get(path, { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    // The 304 is still a cross-origin answer with its rate-limit budget.
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    expect(again.headers.get('ratelimit')).toMatch(/^"free";r=\d+;t=\d+$/);

    // A tag in a list, or strong where we sent it weak, still matches (RFC 9110 weak comparison).
    const listed = await get(path, { 'If-None-Match': `"other", ${etag!.slice(2)}` });
    expect(listed.status).toBe(304);
    const other = await get(path, { 'If-None-Match': '"something-else"' });
    expect(other.status).toBe(200);
  });

  it('gives a new ETag once a new observation changes the answer', async () => {
    const paths = ['/api/v1/entity/acme/rocket', '/api/v1/org/acme', '/api/chain/head'];
    const before = await Promise.all(paths.map(async (p) => (await get(p)).headers.get('etag')));
    await t.store.appendObservations([githubObservation('acme/rocket', '2026-11-22', 'archived')], deps.notary.seal);
    for (const [i, path] of paths.entries()) {
      const res = await get(path, { 'If-None-Match': before[i]! });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('etag'), path).not.toBe(before[i]);
    }
    const entity = await jsonOf<{ state: string }>(await get('/api/v1/entity/acme/rocket'));
    expect(entity.state).toBe('archived');
  });
});

describe('Cache-Control', () => {
  it('keeps an answer about a past date a day, not for good: a dispute’s correction can still change it', async () => {
    for (const path of ['/api/v1/entity/acme/rocket?as_of=2026-07-01', '/api/v1/org/acme?as_of=2026-11-21']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=86400');
    }
  });

  it('keeps a current answer no longer than the observer’s next pass', async () => {
    for (const path of [
      '/api/v1/entity/acme/rocket',
      '/api/v1/entity/acme/rocket?as_of=2026-11-22',
      '/api/v1/org/acme',
      '/v1/trust_score/github/acme/rocket',
      '/api/chain/head',
      '/api/chain/proof/inclusion?index=1',
    ]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=60');
    }
  });

  it('keeps a current answer no later than the next UTC midnight, when staleness moves', async () => {
    deps.clock.set('2026-11-22T23:59:30Z');
    const res = await get('/api/v1/entity/acme/rocket');
    expect(res.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('keeps a proof between two named sizes for good', async () => {
    const res = await get('/api/chain/proof/inclusion?index=1&size=2');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('never stores an error answer, which still says what to do', async () => {
    for (const [path, status] of [
      ['/api/v1/entity/acme/rocket?as_of=2026-11-23', 422],
      ['/api/v1/entity/acme/rocket?as_of=yesterday', 422],
      ['/v1/trust_score/nonsense/x', 422],
      ['/api/chain/proof/inclusion?index=99', 422],
      ['/api/chain/entries/99', 404],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('etag'), path).toBeNull();
      const body = await jsonOf<DetailAnswer | { detail: Json[] }>(res);
      expect(JSON.stringify(body.detail).length, path).toBeGreaterThan(20);
    }
  });
});
