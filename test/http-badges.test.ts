import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import type { State } from '../src/domain/state.js';
import { build } from '../src/http/app.js';
import { createRateLimiter, type RateLimiter } from '../src/limits/limiter.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { jsonOf } from './support/json.js';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/** One held component of every kind, as its badge URL names it, with the state and date it was read. */
const HELD: [ComponentKind, string, State, string][] = [
  ['github', 'acme/rocket', 'archived', '2026-10-01'],
  ['npm', '@acme/widgets', 'alive', '2026-11-20'],
  ['pypi', 'tiny-parser', 'dormant', '2026-11-01'],
  ['docker', 'library/node:22', 'eol', '2026-11-02'],
  ['maven', 'org.acme:rocket-core', 'abandoned', '2026-11-03'],
  ['golang', 'github.com/acme/rocket', 'alive', '2026-11-04'],
  ['cargo', 'rocket-rs', 'deleted', '2026-11-05'],
  ['nuget', 'acme.rocket', 'not_observed', '2026-11-06'],
  ['gem', 'rocket-rb', 'alive', '2026-11-07'],
  ['composer', 'acme/rocket-php', 'dormant', '2026-11-08'],
  ['distro', 'debian/12', 'eol', '2026-11-09'],
];
const TODAY = '2026-11-22';

// Every read through the store port, on both backends.
describe.each([
  ['SQLite', sqliteTestStore],
  ['PostgreSQL', postgresTestStore],
] as const)('badges on %s', (_backend, open) => {
  let t: TestStore;
  let harness: Harness;
  let server: ServerType;
  let base: string;
  let limiter: RateLimiter;
  let notary: ReturnType<typeof recordDeps>['notary'];
  const errors: unknown[] = [];

  beforeAll(async () => {
    t = await open();
    harness = await startHarness({ scenario: { components: {} }, today: TODAY });
    const deps = { ...recordDeps(t.store, `${TODAY}T12:00:00Z`), sources: harness.sources };
    notary = deps.notary;
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.appendObservations(
      HELD.map(([kind, id, state, date]) => {
        const component = normaliseComponent(kind, id);
        return { ...githubObservation('acme/x', date, state), component, source: `https://upstream.test/${kind}` };
      }),
      deps.notary.seal,
    );
    // Read more than two years ago and never since: the badge must not carry its state forward.
    await t.store.appendObservations([githubObservation('acme/old', '2024-01-10', 'alive')], deps.notary.seal);
    limiter = createRateLimiter({ free: 1000, keyed: 1000 });
    const app = build({
      ...deps,
      limiter,
      discovery: { enabled: true, dailyCap: 100, clientShare: 100 },
      logError: (e) => errors.push(e),
    });
    base = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await limiter?.close();
    await harness?.close();
    await t?.dispose();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  /** The text a screen reader announces: the aria-label, which badge-maker also writes as the <title>. */
  const spoken = (svg: string) => /aria-label="([^"]*)"/.exec(svg)?.[1];

  describe('GET /badge/{kind}/{id}.svg', () => {
    it.each(HELD)('%s %s: the state and the date of the observation, in its colour', async (kind, id, state, date) => {
      const r = await get(`/badge/${kind}/${id}.svg`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      expect(r.headers.get('ratelimit')).not.toBeNull();
      // The badge is published data: CC-BY-4.0, as every data answer (its body has no room to say so).
      expect(r.headers.get('link')).toBe('<https://creativecommons.org/licenses/by/4.0/>; rel="license"');
      const words = state === 'not_observed' ? 'not observed' : state;
      expect(spoken(r.text)).toBe(`maintained?: ${words} · ${date}`);
      expect(r.text).toMatch(/^<svg [^>]*role="img"/);
      expect(r.text).toContain(`<title>maintained?: ${words} · ${date}</title>`);
      expect(r.text).not.toMatch(/score/i);
    });

    it('gives each state its own colour, and "not checked" a grey that is no state', async () => {
      const fill = (svg: string) => /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]+)"/.exec(svg)?.[1];
      const colours = new Map<string, string>();
      for (const [kind, id, state] of HELD) colours.set(state, fill((await get(`/badge/${kind}/${id}.svg`)).text)!);
      expect(
        new Set(['alive', 'dormant', 'abandoned', 'archived', 'deleted', 'eol'].map((s) => colours.get(s))).size,
      ).toBe(6);
      const unheld = fill((await get('/badge/npm/never-seen-pkg.svg')).text);
      expect([...colours.values()]).not.toContain(unheld);
    });

    it('says "not checked" for a component the record holds nothing for (never "deleted", never an error), and queues it', async () => {
      const r = await get('/badge/npm/left-pad-unheld.svg');
      expect(r.status).toBe(200);
      expect(spoken(r.text)).toBe('maintained?: not checked');
      const watched = await t.store.watchList();
      expect(watched.map((w) => `${w.component.kind}:${w.component.id}`)).toContain('npm:left-pad-unheld');
    });

    it('answers as_of with the observation it rests on, and before coverage says "not checked by" that date', async () => {
      const carried = await get('/badge/github/acme/rocket.svg?as_of=2026-11-01');
      expect(spoken(carried.text)).toBe('maintained?: archived · 2026-10-01');
      expect(carried.headers.get('cache-control')).toBe('public, max-age=86400');
      const before = await get('/badge/github/acme/rocket.svg?as_of=2025-01-01');
      expect(before.status).toBe(200);
      expect(spoken(before.text)).toBe('maintained?: not checked by 2025-01-01');
      const today = await get(`/badge/github/acme/rocket.svg?as_of=${TODAY}`);
      expect(today.headers.get('cache-control')).toBe('public, max-age=300');
    });

    it('asserts nothing from a stale observation', async () => {
      expect(spoken((await get('/badge/github/acme/old.svg')).text)).toBe('maintained?: unknown (stale) · 2024-01-10');
    });

    it('answers 304 to If-None-Match with its ETag, and a new ETag once a new observation lands', async () => {
      const first = await get('/badge/npm/@acme/widgets.svg');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"/);
      const again = await get('/badge/npm/@acme/widgets.svg', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const otherDate = await get('/badge/npm/@acme/widgets.svg?as_of=2026-11-21', { 'if-none-match': etag });
      expect(otherDate.status).toBe(200);
    });

    it('shows a new observation at once: the badge cache is keyed by the record’s version', async () => {
      const before = await get('/badge/gem/rocket-rb.svg');
      expect(spoken(before.text)).toBe('maintained?: alive · 2026-11-07');
      await t.store.appendObservations(
        [{ ...githubObservation('acme/x', TODAY, 'archived'), component: normaliseComponent('gem', 'rocket-rb') }],
        notary.seal,
      );
      const after = await get('/badge/gem/rocket-rb.svg', { 'if-none-match': before.headers.get('etag')! });
      expect(after.status).toBe(200);
      expect(spoken(after.text)).toBe(`maintained?: archived · ${TODAY}`);
      // A past date the new reading does not reach answers as before.
      expect(spoken((await get('/badge/gem/rocket-rb.svg?as_of=2026-11-21')).text)).toBe(
        'maintained?: alive · 2026-11-07',
      );
    });

    it.each([
      ['/badge/rubygems/rails.svg', 404, 'unknown kind "rubygems": use github, npm'],
      ['/badge/npm/Bad Name!.svg', 400, '"Bad Name!" is not a valid npm id'],
      ['/badge/docker/a<&"\'>b.svg', 400, 'is not a valid docker id'],
      [
        '/badge/github/acme/rocket.svg?as_of=2025-02-30',
        400,
        'as_of must be a date YYYY-MM-DD, today or earlier; got "2025-02-30"',
      ],
      ['/badge/github/acme/rocket.svg?as_of=2099-01-01', 400, 'today or earlier'],
      ['/badge/npm/express', 404, 'a badge address ends in .svg or .json'],
    ])('%s: a %i badge, still an image, that says what is wrong', async (path, status, says) => {
      const r = await get(path.replace(/[<&"'> !]/g, encodeURIComponent));
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(r.headers.get('link')).toBeNull();
      expect(r.text).toMatch(/^<svg [^>]*role="img"/);
      const label = spoken(r.text)!;
      const unescaped = label
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      expect(unescaped).toContain(says);
    });

    it('escapes a name with markup characters, so it never opens an element or an attribute', async () => {
      const r = await get(`/badge/docker/${encodeURIComponent('x"><script>alert(1)</script>&\'')}.svg`);
      expect(r.status).toBe(400);
      expect(r.text).not.toContain('<script');
      expect(r.text).toContain('&lt;script&gt;');
      expect(r.text).toContain('&quot;&gt;');
      // One svg element, one title: nothing the name holds was read as markup.
      expect(r.text.match(/<svg /g)).toHaveLength(1);
      expect(r.text.match(/<title>/g)).toHaveLength(1);
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    });

    it('keeps a pathological long name to a badge’s length', async () => {
      const r = await get(`/badge/npm/${'a'.repeat(5000)}!.svg`);
      expect(r.status).toBe(400);
      const width = Number(/^<svg [^>]*width="(\d+)"/.exec(r.text)?.[1]);
      expect(width).toBeGreaterThan(100);
      expect(width).toBeLessThan(800);
      expect(r.text.length).toBeLessThan(4000);
    });
  });

  /** A shields.io endpoint document (https://shields.io/badges/endpoint-badge). */
  interface Endpoint {
    schemaVersion: number;
    label: string;
    message: string;
    color: string;
    isError?: boolean;
    cacheSeconds: number;
  }

  describe('GET /badge/{kind}/{id}.json', () => {
    it('is a shields.io endpoint document with only the keys its schema admits', async () => {
      const res = await fetch(`${base}/badge/docker/library/node:22.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = await jsonOf<Endpoint>(res);
      expect(body).toEqual({
        schemaVersion: 1,
        label: 'maintained?',
        message: 'eol · 2026-11-02',
        color: '7c2d12',
        labelColor: '555',
        cacheSeconds: 300,
      });
    });

    it('answers an unknown kind with an endpoint error document, status 404', async () => {
      const res = await fetch(`${base}/badge/cpan/Moose.json`);
      expect(res.status).toBe(404);
      const body = await jsonOf<Endpoint>(res);
      expect(body).toMatchObject({ schemaVersion: 1, isError: true });
      expect(body.message).toContain('unknown kind "cpan"');
    });

    it('is described in the OpenAPI document', async () => {
      const doc = await jsonOf<{ paths: Record<string, unknown> }>(await fetch(`${base}/api/v1/docs`));
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/badge/{kind}/{id}.svg', '/badge/{kind}/{id}.json']),
      );
      expect(errors).toEqual([]);
    });
  });
});
