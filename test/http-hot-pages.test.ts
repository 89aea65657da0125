import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonOf, type DetailAnswer } from './support/json.js';
import { framework, get, handedOver, hot, packagePages, start, stop } from './support/hot-servers.js';

// The package pages on the hot path ("is X still maintained?"), over real HTTP on loopback: each
// hot page must be the one the framework alone sends for the same request, every header compared.
afterEach(stop);

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
    // Kinds with no census have a page once observed.
    '/github/acme/rocket',
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

  it('answers a page as of a past date as the framework does, and apart from today’s', async () => {
    const past = await samePageAsFramework('/npm/left-padded?as_of=2026-11-20');
    expect(past.status).toBe(200);
    const today = await samePageAsFramework('/npm/left-padded');
    expect(past.header('etag')).not.toBe(today.header('etag'));
    expect(packagePages.size.entries).toBe(2);
    const revalidated = await samePageAsFramework('/npm/left-padded?as_of=2026-11-20', {
      'If-None-Match': past.header('etag')!,
    });
    expect(revalidated.status).toBe(304);
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
      // No page: never watched (404), or held below the adoption threshold (its state, noindex: held-answer.tsx).
      ['/npm/never-seen-pkg', 404],
      ['/npm/lonely', 200],
      // Not a package the router reads, or not a valid name.
      ['/npm/acme/widgets', 404],
      ['/npm/@acme', 422],
      ['/maven/org.acme', 404],
      ['/github/acme/never-seen', 404],
      ['/nuget/acme.rocket', 404],
      ['/docker/library/never-seen:1', 404],
      ['/github/acme', 404],
      // Queries, encoded, empty and trailing segments.
      ['/npm/@acme/widgets?as_of=2026-11-23', 422],
      ['/npm/@acme/widgets?as_of=2026-11-20&x=1', 200],
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
