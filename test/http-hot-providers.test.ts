import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonOf, type DetailAnswer } from './support/json.js';
import { githubObservation } from './support/record.js';
import { deps, get, handedOver, hot, rawGet, sameAsFramework, start, stop, t } from './support/hot-servers.js';

// The badge and log-head providers of the hot path, over real HTTP on loopback: each hot answer must
// be the one the framework alone sends for the same request (a second server with no hot path, on
// the same app), header for header, and spend the same rate-limit budget.
afterEach(stop);

describe('hot badges', () => {
  beforeEach(() => start(100));

  it.each([
    '/badge/github/acme/rocket.svg',
    '/badge/github/acme/rocket.json',
    '/badge/github/acme/rocket.svg?as_of=2026-07-01',
    '/badge/npm/@acme/widgets.svg',
    '/badge/npm/@acme/widgets.json?as_of=2026-11-22',
  ])('answers %s with the framework’s bytes and headers, drawn or cached, and 304 to its tag', async (path) => {
    // The first read is drawn on the hot path and cached; the framework's then comes from that cache,
    // and a second hot read too.
    const { res, body } = await sameAsFramework(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(res.headers.get('ratelimit')).toMatch(/^"free";r=99;t=\d+$/);
    if (path.includes('.svg')) expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('cache-control')).toBe(
      path.includes('2026-07-01') ? 'public, max-age=86400' : 'public, max-age=300',
    );
    const again = await sameAsFramework(path);
    expect(again.body.equals(body)).toBe(true);

    const etag = res.headers.get('etag')!;
    const revalidated = await sameAsFramework(path, { 'If-None-Match': etag });
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.res.headers.get('etag')).toBe(etag);
    expect(handedOver).toBe(0);
  });

  it('hands a component the record does not hold to the framework, which queues it', async () => {
    const res = await get(hot, '/badge/npm/never-seen-pkg.svg');
    expect(res.status).toBe(200);
    expect(handedOver).toBe(1);
    const watched = await t.store.watchList();
    expect(watched.map((w) => `${w.component.kind}:${w.component.id}`)).toContain('npm:never-seen-pkg');
  });

  it('hands the framework what it does not answer, which answers it as before', async () => {
    const cached = await get(hot, '/badge/github/acme/rocket.svg');
    const cases = [
      ['/badge/nope/acme/rocket.svg', 404],
      ['/badge/github/not-a-repo.svg', 400],
      ['/badge/github/acme/rocket.svg?as_of=2026-13-01', 400],
      ['/badge/github/acme/rocket.json?as_of=2026-11-23', 400],
      ['/badge/github/acme/rocket.png', 404],
      ['/badge/github/acme/rocket.svg?as_of=2026-07-01&x=1', 200],
      ['/badge/github/acme/rocket.svg?style=flat', 200],
      ['/badge/npm/%40acme/widgets.svg', 200],
    ] as const;
    for (const [path, status] of cases) {
      const before = handedOver;
      const res = await get(hot, path);
      expect(res.status, path).toBe(status);
      expect(handedOver, path).toBe(before + 1);
      if (status !== 200) expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    // A dot segment, which the framework resolves before routing.
    const before = handedOver;
    expect(await rawGet('/badge/github/acme/./rocket.svg')).toBe(200);
    expect(handedOver).toBe(before + 1);
    // If-Modified-Since is the route's to answer, from Last-Modified.
    const since = await get(hot, '/badge/github/acme/rocket.svg', {
      'If-Modified-Since': cached.headers.get('last-modified')!,
    });
    expect(since.status).toBe(304);
    expect(handedOver).toBe(before + 2);
    // A key goes to the framework, which checks it.
    const keyed = await get(hot, '/badge/github/acme/rocket.svg', { 'X-API-Key': 'not-a-key' });
    expect(keyed.status).toBe(401);
    expect(handedOver).toBe(before + 3);
    expect((await jsonOf<DetailAnswer>(keyed)).detail).toMatch(/X-API-Key/);
  });
});

describe('the hot log head', () => {
  beforeEach(() => start(100));

  it.each(['/api/chain/head', '/api/chain/checkpoint'])(
    'answers %s with the framework’s bytes and headers, and 304 to its tag',
    async (path) => {
      const { res, body } = await sameAsFramework(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(body.length));
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.headers.get('etag')).toMatch(/^W\/"[\w-]{22}"$/);
      const etag = res.headers.get('etag')!;
      const revalidated = await sameAsFramework(path, { 'If-None-Match': etag });
      expect(revalidated.res.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(handedOver).toBe(0);

      // A new head, a new tag, at once.
      await t.store.appendObservations([githubObservation('acme/rocket', '2026-11-22', 'archived')], deps.notary.seal);
      const after = await sameAsFramework(path, { 'If-None-Match': etag });
      expect(after.res.status).toBe(200);
      expect(after.res.headers.get('etag')).not.toBe(etag);
      expect(after.body.equals(body)).toBe(false);
    },
  );

  it('hands the framework what it does not answer', async () => {
    for (const [path, status] of [
      ['/api/chain/head?x=1', 200],
      ['/api/chain/head/', 308],
      ['/api/chain/entries/0', 200],
      ['/api/chain/proof/inclusion?index=0', 200],
    ] as const) {
      const before = handedOver;
      const res = await get(hot, path);
      expect(res.status, path).toBe(status);
      expect(handedOver, path).toBe(before + 1);
    }
  });
});

describe('the hot log head of a log not sealed yet', () => {
  beforeEach(() => start(100, { sealed: false }));

  it('hands the read to the framework, which explains it', async () => {
    const res = await get(hot, '/api/chain/head');
    expect(res.status).toBe(404);
    expect(handedOver).toBe(1);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the hot providers and the rate limit', () => {
  beforeEach(() => start(4));

  it('spend one token a request from the one budget, hot or handed over, and refuse as the framework does', async () => {
    const paths = [
      '/badge/github/acme/rocket.svg',
      '/api/chain/head',
      // Handed over (not held): the framework spends the token the hot path took, not another.
      '/badge/npm/never-seen-pkg.json',
      '/api/chain/checkpoint',
    ];
    const budgets: (string | null)[] = [];
    for (const path of paths) budgets.push((await get(hot, path)).headers.get('ratelimit'));
    expect(budgets.map((b) => b?.replace(/;t=\d+$/, ''))).toEqual([
      '"free";r=3',
      '"free";r=2',
      '"free";r=1',
      '"free";r=0',
    ]);
    expect(handedOver).toBe(1);
    for (const path of ['/badge/github/acme/rocket.svg', '/api/chain/head']) {
      const before = handedOver;
      const refused = await get(hot, path);
      expect(refused.status, path).toBe(429);
      expect(handedOver, path).toBe(before + 1);
      expect(refused.headers.get('ratelimit'), path).toMatch(/^"free";r=0;t=\d+$/);
      expect(refused.headers.get('cache-control'), path).toBe('no-store');
      expect((await jsonOf<DetailAnswer>(refused)).detail).toMatch(/^Too many requests: the limit is 4 per 60 seconds/);
    }
  });
});
