import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import { build } from '../src/http/app.js';
import { hotBadges } from '../src/http/hot-badge.js';
import { hotEntityAnswers } from '../src/http/hot-entity.js';
import { hotLogHead } from '../src/http/hot-log-head.js';
import { hotPackagePages } from '../src/http/hot-page.js';
import { hotReads } from '../src/http/hot-path.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { HeadAnswers } from '../src/operations/read-chain.js';
import { entityAnswerCache } from '../src/operations/read-entity.js';
import { badgeCache } from '../src/pages/badge-answer.js';
import { packagePageCache, type PackagePageCache } from '../src/pages/package-answer.js';
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
let packagePages: PackagePageCache;

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Packages with a page (a census at or above the threshold of 1), and one below it. */
const PAGED: [ComponentKind, string, number][] = [
  ['npm', '@acme/widgets', 12],
  ['npm', 'left-padded', 40],
  ['pypi', 'tiny-parser', 3],
  ['cargo', 'rocket-rs', 2],
  ['gem', 'rocket-rb', 5],
  ['maven', 'org.acme:rocket-core', 7],
  ['composer', 'acme/rocket-php', 9],
  ['golang', 'github.com/acme/rocket', 4],
  ['npm', 'lonely', 0],
];

async function fillPages() {
  const refs = PAGED.map(([kind, id, dependents]) => ({ component: normaliseComponent(kind, id), dependents }));
  await t.store.appendObservations(
    refs
      .filter((r) => r.component.id !== '@acme/widgets')
      .map((r) => ({
        ...githubObservation('acme/x', '2026-11-19', 'alive'),
        component: r.component,
        source: `https://upstream.test/${r.component.kind}`,
      })),
    deps.notary.seal,
  );
  await t.store.appendCensus(
    refs.map((r) => ({
      component: r.component,
      read_at: '2026-11-21T07:00:00Z',
      read_date: '2026-11-21',
      dependents: r.dependents,
      source: `https://dependents.test/${r.component.kind}`,
      evidence: {},
      method: 'dependents count',
    })),
    deps.notary.seal,
  );
}

async function start(free: number, options: { sealed?: boolean; pages?: boolean } = {}) {
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
    if (options.pages) await fillPages();
  }
  limiter = createRateLimiter({ free, keyed: 1000 });
  const entityAnswers = entityAnswerCache(1024 * 1024);
  const badgeAnswers = badgeCache();
  const headAnswers = new HeadAnswers();
  packagePages = packagePageCache();
  const app = build({
    ...deps,
    sources: closedSources(),
    discovery: { enabled: true, dailyCap: 100 },
    logError: () => {},
    limiter,
    entityAnswers,
    badgeAnswers,
    headAnswers,
    packagePages,
  });
  const frameworkListener = getRequestListener(app.fetch);
  handedOver = 0;
  const listener = hotReads({
    limiter,
    providers: [
      hotEntityAnswers(deps, entityAnswers),
      hotBadges(deps, badgeAnswers),
      hotLogHead(deps, headAnswers),
      ...hotPackagePages(deps, packagePages),
    ],
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

/** The Host both servers are asked under: a page's canonical links are built from it. */
const PAGE_HOST = 'pages.tended.test:8080';

/** A request as written to `base`, under PAGE_HOST: status, headers (all but date and ratelimit) and bytes. */
function rawAnswer(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: [string, string][]; body: Buffer }>((resolve, reject) => {
    request({ host: '127.0.0.1', port: new URL(base).port, path, headers: { ...headers, host: PAGE_HOST } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        resolve({
          status: res.statusCode!,
          headers: pairs
            .filter(([name]) => name !== 'date' && name !== 'ratelimit')
            .sort(([a], [b]) => a.localeCompare(b)),
          body: Buffer.concat(chunks),
        });
      });
    })
      .on('error', reject)
      .end();
  });
}

/** The hot answer to a page, with the framework's to the same request, bytes and every header compared. */
async function samePageAsFramework(path: string, headers: Record<string, string> = {}) {
  const before = handedOver;
  const fast = await rawAnswer(hot, path, headers);
  expect(handedOver, path).toBe(before);
  const slow = await rawAnswer(framework, path, headers);
  expect(fast.status, path).toBe(slow.status);
  expect(fast.body.equals(slow.body), path).toBe(true);
  expect(fast.headers, path).toEqual(slow.headers);
  return { ...fast, header: (name: string) => fast.headers.find(([n]) => n === name)?.[1] };
}

describe('hot package pages', () => {
  beforeEach(() => start(100, { pages: true }));

  it.each([
    '/npm/@acme/widgets',
    '/npm/left-padded',
    '/pypi/tiny-parser',
    '/cargo/rocket-rs',
    '/gem/rocket-rb',
    '/maven/org.acme/rocket-core',
    '/composer/acme/rocket-php',
    '/golang/github.com/acme/rocket',
  ])('answers %s with the framework’s bytes and headers, rendered or cached, and 304 to its tag', async (path) => {
    // Rendered on the hot path and cached; the framework's answer then comes from that cache.
    const page = await samePageAsFramework(path);
    expect(page.status).toBe(200);
    expect(page.header('content-type')).toBe('text/html; charset=utf-8');
    expect(page.header('content-length')).toBe(String(page.body.length));
    expect(page.header('cache-control')).toBe('public, max-age=300, stale-while-revalidate=60');
    expect(page.header('content-security-policy')).toContain("default-src 'none'");
    expect(page.header('referrer-policy')).toBe('no-referrer');
    expect(page.header('x-frame-options')).toBe('DENY');
    expect(page.header('x-content-type-options')).toBe('nosniff');
    // A page is not licensed data: no licence Link, on the hot path as on the route.
    expect(page.header('link')).toBeUndefined();
    expect(page.body.toString()).toContain(`http://${PAGE_HOST}${path}`);
    expect(packagePages.size.entries).toBe(1);
    const again = await samePageAsFramework(path);
    expect(again.body.equals(page.body)).toBe(true);

    const etag = page.header('etag')!;
    const revalidated = await samePageAsFramework(path, { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.header('etag')).toBe(etag);
    expect(revalidated.header('last-modified')).toBe(page.header('last-modified'));
    // The framework adds the HTML security headers by Content-Type, which its 304 does not carry.
    expect(revalidated.header('content-security-policy')).toBeUndefined();
    expect(handedOver).toBe(0);
  });

  it('serves a page the route rendered from the one cache they share', async () => {
    const slow = await rawAnswer(framework, '/npm/@acme/widgets');
    expect(slow.status).toBe(200);
    expect(packagePages.size.entries).toBe(1);
    const fast = await samePageAsFramework('/npm/@acme/widgets');
    expect(fast.body.equals(slow.body)).toBe(true);
    expect(packagePages.size.entries).toBe(1);
  });

  it('hands the framework what it does not answer, once each, which answers it as before', async () => {
    const cached = await rawAnswer(hot, '/npm/@acme/widgets');
    const cases = [
      // No page: never watched, or below the adoption threshold.
      ['/npm/never-seen-pkg', 404],
      ['/npm/lonely', 404],
      // Not a package the router reads, or not a valid name.
      ['/npm/acme/widgets', 404],
      ['/npm/@acme', 422],
      ['/maven/org.acme', 404],
      ['/github/acme/rocket', 404],
      ['/nuget/acme.rocket', 404],
      // Queries, encoded, empty and trailing segments.
      ['/npm/@acme/widgets?as_of=2026-11-20', 200],
      ['/npm/@acme/widgets?x=1', 200],
      ['/npm/%40acme/widgets', 200],
      ['/npm/@acme//widgets', 404],
      ['/npm/@acme/widgets/', 308],
      // /golang/* takes the slash into the module path, which is then not a valid one.
      ['/golang/github.com/acme/rocket/', 422],
      // A dot segment, which the framework resolves before routing.
      ['/npm/@acme/./widgets', 200],
      ['/maven/org.acme/../org.acme/rocket-core', 200],
    ] as const;
    for (const [path, status] of cases) {
      const before = handedOver;
      const res = await rawAnswer(hot, path);
      expect(res.status, path).toBe(status);
      expect(handedOver, path).toBe(before + 1);
    }
    // If-Modified-Since is the route's to answer, from Last-Modified.
    const before = handedOver;
    const lastModified = cached.headers.find(([n]) => n === 'last-modified')![1];
    const since = await rawAnswer(hot, '/npm/@acme/widgets', { 'If-Modified-Since': lastModified });
    expect(since.status).toBe(304);
    expect(handedOver).toBe(before + 1);
  });
});

describe('hot package pages and the rate limit', () => {
  beforeEach(() => start(3, { pages: true }));

  it('spend one token a request, hot or handed over, and refuse as the framework does', async () => {
    const budgets: (string | null)[] = [];
    for (const path of ['/npm/@acme/widgets', '/npm/lonely', '/pypi/tiny-parser'])
      budgets.push((await get(hot, path)).headers.get('ratelimit'));
    expect(budgets.map((b) => b?.replace(/;t=\d+$/, ''))).toEqual(['"free";r=2', '"free";r=1', '"free";r=0']);
    expect(handedOver).toBe(1);
    const refused = await get(hot, '/npm/@acme/widgets');
    expect(refused.status).toBe(429);
    expect(handedOver).toBe(2);
    expect(refused.headers.get('ratelimit')).toMatch(/^"free";r=0;t=\d+$/);
    expect((await jsonOf<DetailAnswer>(refused)).detail).toMatch(/^Too many requests: the limit is 3 per 60 seconds/);
  });
});
