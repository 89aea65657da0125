import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { build } from '../src/http/app.js';
import { hotBadges } from '../src/http/hot-badge.js';
import { hotEntityAnswers } from '../src/http/hot-entity.js';
import { hotLogHead } from '../src/http/hot-log-head.js';
import { hotReads } from '../src/http/hot-path.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { HeadAnswers } from '../src/operations/read-chain.js';
import { entityAnswerCache } from '../src/operations/read-entity.js';
import { badgeCache } from '../src/pages/badge-answer.js';
import { jsonOf, type DetailAnswer } from './support/json.js';
import { closedSources } from './support/limits.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

// The badge and log-head providers of the hot path, over real HTTP on loopback: each hot answer must
// be the one the framework alone sends for the same request (a second server with no hot path, on
// the same app), header for header, and spend the same rate-limit budget.
let t: TestStore;
let deps: ReturnType<typeof recordDeps>;
let limiter: RateLimiter;
let servers: Server[];
let hot: string;
let framework: string;
/** Requests the hot path handed to the framework. */
let handedOver: number;

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function start(free: number, options: { sealed?: boolean } = {}) {
  t = await sqliteTestStore();
  deps = recordDeps(t.store, '2026-11-22T12:00:00Z');
  if (options.sealed !== false) {
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.appendObservations(
      [
        githubObservation('acme/rocket', '2026-06-01', 'alive'),
        githubObservation('acme/rocket', '2026-11-20', 'dormant'),
        {
          ...githubObservation('acme/x', '2026-11-18', 'alive'),
          component: normaliseComponent('npm', '@acme/widgets'),
          source: 'https://upstream.test/npm',
        },
      ],
      deps.notary.seal,
    );
  }
  limiter = createRateLimiter({ free, keyed: 1000 });
  const entityAnswers = entityAnswerCache(1024 * 1024);
  const badgeAnswers = badgeCache();
  const headAnswers = new HeadAnswers();
  const app = build({
    ...deps,
    sources: closedSources(),
    discovery: { enabled: true, dailyCap: 100 },
    logError: () => {},
    limiter,
    entityAnswers,
    badgeAnswers,
    headAnswers,
  });
  const frameworkListener = getRequestListener(app.fetch);
  handedOver = 0;
  const listener = hotReads({
    limiter,
    providers: [hotEntityAnswers(deps, entityAnswers), hotBadges(deps, badgeAnswers), hotLogHead(deps, headAnswers)],
  })((req, res) => {
    handedOver++;
    return frameworkListener(req, res);
  });
  servers = [];
  hot = await listening(createServer(listener));
  // The framework alone, as `tended serve` ran before the hot path (its promise is the server's to ignore).
  framework = await listening(createServer((req, res) => void frameworkListener(req, res)));
}

afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await limiter.close();
  await t.dispose();
});

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers, redirect: 'manual' });

/** Every header but those that differ from one answer to the next by nature (the date, the budget left). */
const stable = (headers: Headers) =>
  [...headers].filter(([name]) => name !== 'date' && name !== 'ratelimit').sort(([a], [b]) => a.localeCompare(b));

/** The hot answer to `path`, with the framework's to the same request, bytes and headers compared. */
async function sameAsFramework(path: string, headers: Record<string, string> = {}) {
  const before = handedOver;
  const fast = await get(hot, path, headers);
  const fastBody = Buffer.from(await fast.arrayBuffer());
  expect(handedOver, path).toBe(before);
  const slow = await get(framework, path, headers);
  const slowBody = Buffer.from(await slow.arrayBuffer());
  expect(fast.status, path).toBe(slow.status);
  expect(fastBody.equals(slowBody), path).toBe(true);
  expect(stable(fast.headers), path).toEqual(stable(slow.headers));
  return { res: fast, body: fastBody };
}

/** A request as written, dot segments and all (fetch would resolve them before sending). */
function rawGet(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const port = new URL(hot).port;
    request({ host: '127.0.0.1', port, path }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    })
      .on('error', reject)
      .end();
  });
}

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
