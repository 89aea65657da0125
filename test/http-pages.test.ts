import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import { SITEMAP_MAX_URLS } from '../src/pages/sitemap.js';
import { jsonOf, parsedAs, type Json, type ValidationAnswer } from './support/json.js';
import { anyOf, stringContaining, stringMatching } from './support/matchers.js';
import { fillPageRecord, LAST_DAY } from './support/pages-record.js';
import { postgresTestStore, sqliteTestStore, type TestStore } from './support/record.js';
import { normaliseComponent } from '../src/domain/component.js';

let t: TestStore;
let filled: Awaited<ReturnType<typeof fillPageRecord>>;
let app: ReturnType<typeof build>;
const BASE = 'https://tended.example';

beforeAll(async () => {
  t = await sqliteTestStore();
  filled = await fillPageRecord(t.store);
  app = build({
    ...filled,
    sources: filled.harness.sources,
    logError: (e) => console.error(e),
    publicUrl: BASE,
    rateLimitFree: 61,
    rateLimitKey: 601,
  });
}, 60_000);
afterAll(async () => {
  await filled.harness.close();
  await t.dispose();
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const get = async (path: string, headers: Record<string, string> = html) => {
  const res = await app.request(path, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
};
/** A page's JSON-LD blocks, each a JSON object. */
const jsonLd = (page: string) =>
  [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) =>
    parsedAs<Record<string, Json>>(m[1]!),
  );
/** What the test reads of /prices.json. */
interface Prices {
  tiers: Record<string, Json>[];
  same_record_for_everyone: boolean;
}
const text = (page: string) =>
  page
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const PAGES = [
  '/',
  '/npm/left-padded',
  '/npm/@acme/widgets',
  '/npm/left-padded?as_of=2025-08-01',
  '/pypi/tiny-parser',
  '/maven/org.acme/rocket-core',
  '/golang/github.com/acme/rocket',
  '/cargo/rocket-rs',
  '/gem/rocket-rb',
  '/composer/acme/rocket-php',
  '/methodology',
  '/terms',
  '/separation',
  '/verify',
];
const FILES: [string, RegExp][] = [
  ['/robots.txt', /^text\/plain/],
  ['/llms.txt', /^text\/plain/],
  ['/sitemap.xml', /xml/],
  ['/prices.json', /^application\/json/],
  ['/assets/site.css', /^text\/css/],
  ['/assets/verify.js', /^text\/javascript/],
];

describe('human pages and crawler files', () => {
  it('serves every page and file with validators and caching headers, and 304 to a client that holds it', async () => {
    for (const [path, type] of [...PAGES.map((p): [string, RegExp] => [p, /^text\/html/]), ...FILES]) {
      const first = await get(path);
      expect(first.status, path).toBe(200);
      expect(first.headers.get('content-type'), path).toMatch(type);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(/^W\/"[\w-]{22}"$/);
      expect(new Date(first.headers.get('last-modified')!).getTime(), path).not.toBeNaN();
      expect(first.headers.get('cache-control'), path).toMatch(/max-age=\d+/);
      const again = await get(path, { ...html, 'if-none-match': etag! });
      expect(again.status, path).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    expect((await get('/assets/site.css')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('gives a qualified package every item of spec §2.2', async () => {
    const page = await get('/npm/left-padded');
    const body = text(page.text);
    expect(page.text).toContain('<title>is left-padded still maintained? — Tended</title>');
    expect(page.text).toContain('<h1>is left-padded still maintained?</h1>');
    expect(body).toContain('State (latest) archived the latest version carries a registry deprecation notice');
    expect(body).toContain('Latest published version 1.1.0 (2024-12-01)');
    expect(body).toContain('Deprecation notice Use String.prototype.padStart() instead');
    expect(body).toContain('Dated observations 5, first 2025-06-01, last 2026-04-02');
    expect(body).toContain('State changes 1');
    expect(body).toContain(`Adoption 42 dependent packages, read ${LAST_DAY}`);
    expect(body).toMatch(
      /Method Read from the npm registry’s own metadata for the package: the latest-published timestamp .* deprecation flag .* authoritative/,
    );
    expect(body).toMatch(/Source \/ evidence http:\/\/127\.0\.0\.1:\d+\/npm\/left-padded/);
    expect(body).toContain(`Observed as of ${LAST_DAY}`);
    expect(body).toContain('Registry npm (the JavaScript package registry)');
    // The series table: one row per date, newest first, with a dash where there is no deprecation;
    // the notice's <wbr> break opportunities add nothing to its text.
    const rows = [
      ...page.text.matchAll(
        /<tr><td>(\d{4}-\d{2}-\d{2})[^<]*<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><td>(.*?)<\/td><\/tr>/g,
      ),
    ].map((m) => [m[1], m[2], m[3], m[4]!.replace(/<wbr\s*\/?>/g, '')]);
    expect(rows).toEqual([
      ['2026-04-02', 'archived', '2024-12-01', 'Use String.prototype.padStart() instead'],
      ['2025-11-20', 'archived', '2024-12-01', 'Use String.prototype.padStart() instead'],
      ['2025-08-05', 'dormant', '2024-12-01', '—'],
      ['2025-07-15', 'dormant', '2024-12-01', '—'],
      ['2025-06-01', 'dormant', '2024-12-01', '—'],
    ]);
    expect(page.text).toContain('String.<wbr/>prototype.<wbr/>padStart() instead');
    expect(body).toContain(
      'dormant → archived observed 2025-11-20 (changed after 2025-08-05, on or before 2025-11-20)',
    );
    for (const q of [
      'When was left-padded last published?',
      'What state does Tended record for left-padded?',
      'What does the state mean for projects that depend on left-padded?',
      'What is the observation record for left-padded?',
    ]) {
      expect(body).toContain(q);
    }
    const [faq, dataset] = jsonLd(page.text);
    expect(faq).toMatchObject({ '@context': 'https://schema.org', '@type': 'FAQPage' });
    expect(faq!.mainEntity).toHaveLength(4);
    expect(dataset).toMatchObject({
      '@type': 'Dataset',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      url: `${BASE}/npm/left-padded`,
      temporalCoverage: '2025-06-01/2026-04-02',
    });
    expect(page.text).toMatch(/<svg class="timeline"[^>]*role="img"/);
    expect(page.text).toContain('CC-BY-4.0');
    // A package without a deprecation says so in words, and a scoped name has its page too.
    const widgets = text((await get('/npm/@acme/widgets')).text);
    expect(widgets).toContain('Deprecation notice none on record');
    expect(widgets).toContain('dormant → alive observed 2025-08-05');
    expect(widgets).toContain(`Adoption 12 dependent packages, read ${LAST_DAY}`);
  });

  it('offers the Markdown of its badge to copy, and the badge it names answers', async () => {
    const page = await get('/maven/org.acme/rocket-core');
    const markdown = `[![maintained? org.acme:rocket-core](${BASE}/badge/maven/org.acme:rocket-core.svg)](${BASE}/maven/org.acme/rocket-core)`;
    expect(text(page.text)).toContain(markdown);
    expect(page.text).toContain('<img src="/badge/maven/org.acme:rocket-core.svg"');
    const badge = await app.request('/badge/maven/org.acme:rocket-core.svg');
    expect(badge.status).toBe(200);
    expect(await badge.text()).toMatch(/aria-label="maintained\?: \w+ · 2026-04-02"/);
  });

  it('shows on the home page the latest state changes, newest first, and how many packages have a page', async () => {
    const home = text((await get('/')).text);
    // Newest first; on one date, by registry and name.
    expect(home).toContain(
      [
        'acme/rocket-php (Composer package): alive → archived observed 2026-04-02 (after 2025-11-20)',
        'tiny-parser (PyPI project): dormant → archived observed 2026-04-02 (after 2025-11-20)',
        'rocket-rs (crate): dormant → alive observed 2025-11-20 (after 2025-08-05)',
        'acme/rocket-php (Composer package): dormant → alive observed 2025-11-20 (after 2025-08-05)',
        'rocket-rb (gem): dormant → abandoned observed 2025-11-20 (after 2025-08-05)',
        'github.com/acme/rocket (Go module): dormant → alive observed 2025-11-20 (after 2025-08-05)',
        'org.acme:rocket-core (Maven artifact): dormant → alive observed 2025-11-20 (after 2025-08-05)',
        'left-padded (npm package): dormant → archived observed 2025-11-20 (after 2025-08-05)',
        'tiny-parser (PyPI project): alive → dormant observed 2025-11-20 (after 2025-08-05)',
        '@acme/widgets (npm package): dormant → alive observed 2025-08-05 (after 2025-07-15)',
      ].join(' '),
    );
    // Every registry with a census, NuGet's package left out: its registry has no census, so no page.
    expect(home).toContain('8 packages with a page (at least 1 dependent package by the latest census)');
    const head = (await (await app.request('/api/chain/head')).json()) as { timestamp: string; tree_size: number };
    expect(home).toContain(`as the log stood at its head of ${head.timestamp} (${head.tree_size} leaves)`);
  });

  it('answers a package page as of a date from what was observed by then, never after', async () => {
    const page = text((await get('/npm/left-padded?as_of=2025-08-01')).text);
    // Issue 27 item 1: a page as of a past date says so, and the census read after that date says when it was read.
    expect(page).toContain('State as of 2025-08-01 dormant');
    expect(page).not.toContain('State (latest)');
    expect(page).toContain(`Adoption 42 dependent packages, read ${LAST_DAY}`);
    expect(page).toContain('the latest census, read after 2025-08-01, the date this page answers for');
    expect(page).toContain('Dated observations 2, first 2025-06-01, last 2025-07-15');
    expect(page).toContain('Censoring interval-censored, answering for 2025-08-01');
    expect(page).not.toContain('2025-11-20');
    const beforeHtml = (await get('/npm/left-padded?as_of=2025-01-01')).text;
    const before = text(beforeHtml);
    // Nothing was read by then: "not checked", never a check that met a failure, and no header-only table.
    expect(before).toContain('Observed as of no observation on or before 2025-01-01 (not checked)');
    expect(before).toContain('Censoring not-observed-at-date');
    expect(before).toContain('not checked: the record holds no observation on or before this date');
    expect(before).not.toMatch(/could not read|403, 429|time-out|network failure/);
    expect(before).toContain('No observation of left-padded on or before 2025-01-01: not checked.');
    expect(beforeHtml).not.toContain('<table');
    expect(before).toContain('Nothing to draw: no observation on or before this date.');
    expect(before).not.toContain('no observation is held');
    const bad = await get('/npm/left-padded?as_of=2025-02-30');
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text(bad.text)).toContain('Not a date Tended can answer for');
    expect(text(bad.text)).toContain('as_of must be a real calendar date');
    const badJson = await app.request('/npm/left-padded?as_of=soon');
    expect(badJson.status).toBe(422);
    expect((await jsonOf<ValidationAnswer>(badJson)).detail[0]).toMatchObject({ loc: ['query', 'as_of'] });
    // A name that is not a package name: the HTML page for a person, the spec's 422 item against the path for a program.
    for (const path of ['/npm/%E0', '/npm/@acme/%E0', '/npm/.hidden']) {
      const named = await app.request(path, { headers: { accept: 'application/json' } });
      expect(named.status, path).toBe(422);
      const { detail } = (await named.json()) as { detail: { loc: unknown; msg: string; type: string }[] };
      expect(detail, path).toEqual([
        {
          loc: ['path', 'name'],
          msg: stringMatching(/an npm component is named name or @scope\/name/),
          type: 'value_error.component_name',
        },
      ]);
      expect((await get(path)).status, path).toBe(422);
    }
  });

  // Issue 27 item 1: the one state name not_observed covers nothing read and a read that failed; the words tell them apart.
  it('says on /methodology what "not checked" is, apart from a read that failed', async () => {
    const page = text((await get('/methodology')).text);
    expect(page).toContain(
      'carries not_observed with no observation date and says not checked : the record holds no observation on or before this date, so nothing was read',
    );
  });

  it('answers 404 with the reason for a package without a page', async () => {
    const unwatched = await get('/npm/left-pad');
    expect(unwatched.status).toBe(404);
    expect(unwatched.headers.get('content-type')).toMatch(/^text\/html/);
    expect(text(unwatched.text)).toContain('Tended holds no reading of the npm package left-pad');
    expect(unwatched.headers.get('etag')).toMatch(/^W\//);
    expect(unwatched.headers.get('cache-control')).toBe('no-cache');
    // Issue 36 item 2: a held package below the threshold is never shown as absent.
    const unqualified = await get('/npm/evil-pkg');
    expect(unqualified.status).toBe(200);
    const said = text(unqualified.text);
    expect(said).toContain('Tended holds the npm package evil-pkg');
    expect(said).toMatch(/observed \d{4}-\d{2}-\d{2}/);
    expect(said).toContain(
      `It has no full page: The latest census of evil-pkg (${LAST_DAY}) counted 0 dependent packages; a page needs at least 1.`,
    );
    expect(unqualified.text).toContain('href="/v1/trust_score/npm/evil-pkg"');
    expect(unqualified.text).toContain('src="/badge/npm/evil-pkg.svg"');
    expect(unqualified.text).toContain('<meta name="robots" content="noindex"/>');
    const facts = (await (await app.request('/v1/trust_score/npm/evil-pkg')).json()) as { state: string };
    expect(said).toContain(`evil-pkg: ${facts.state}`);
    const heldJson = await app.request('/npm/evil-pkg', { headers: { accept: 'application/json' } });
    expect(heldJson.status).toBe(200);
    expect(await heldJson.json()).toMatchObject({
      state: facts.state,
      answer: '/v1/trust_score/npm/evil-pkg',
      badge: '/badge/npm/evil-pkg.svg',
      page: null,
    });
    // Search treats it the same: the exact name leads to that answer, not to a 404.
    const searched = await app.request('/search?q=evil-pkg', { headers: html });
    expect(searched.status).toBe(303);
    expect(searched.headers.get('location')).toBe('/npm/evil-pkg');
    const machine = await app.request('/npm/left-pad', { headers: { accept: 'application/json' } });
    expect(machine.status).toBe(404);
    expect(await machine.json()).toEqual({
      detail: stringContaining('holds no reading of the npm package left-pad'),
    });
    expect((await get('/npm/notascope/x')).status).toBe(404);
  });

  it('says a package it observes has no page yet only because its dependents were not read, not that it is unwatched', async () => {
    const observed = normaliseComponent('npm', 'observed-no-census');
    await t.store.appendObservations(
      [
        {
          component: observed,
          observed_at: `${LAST_DAY}T12:00:00Z`,
          observation_date: LAST_DAY,
          state: 'alive',
          source: 'https://registry.npmjs.org/observed-no-census',
          evidence: { http_status: 200 },
          method: 'npm registry full packument',
          corrects: null,
        },
      ],
      filled.notary.seal,
    );
    const page = await get('/npm/observed-no-census');
    expect(page.status).toBe(200);
    expect(text(page.text)).toContain('Tended holds the npm package observed-no-census');
    expect(text(page.text)).toContain('Tended has not read them yet');
    expect(text(page.text)).not.toContain('holds no reading');
  });

  it('moves the threshold with TENDED_PAGE_MIN_DEPENDENTS', async () => {
    const strict = build({ ...filled, sources: filled.harness.sources, logError: () => {}, pageMinDependents: 20 });
    expect((await strict.request('/npm/left-padded')).status).toBe(200);
    const widgets = await strict.request('/npm/@acme/widgets', { headers: html });
    expect(widgets.status).toBe(200);
    expect(text(await widgets.text())).toContain('counted 12 dependent packages; a page needs at least 20');
    expect(await (await strict.request('/sitemap.xml')).text()).not.toContain('widgets');
  });

  it('shows a new observation at once: the page cache is keyed by the record’s version', async () => {
    const before = await get('/npm/@acme/widgets');
    const spare = await sqliteTestStore();
    try {
      const other = await fillPageRecord(spare.store);
      await other.harness.close();
      const local = build({ ...other, sources: other.harness.sources, logError: () => {} });
      const a = await local.request('/npm/@acme/widgets');
      const etag = a.headers.get('etag')!;
      other.clock.set('2026-04-03T12:00:00Z');
      await other.store.appendObservations(
        [
          {
            component: { kind: 'npm', id: '@acme/widgets' },
            observed_at: '2026-04-03T06:00:00Z',
            observation_date: '2026-04-03',
            state: 'not_observed',
            source: 'https://registry.example/@acme/widgets',
            evidence: { http_status: 429 },
            method: 'npm',
            corrects: null,
          },
        ],
        other.notary.seal,
      );
      const b = await local.request('/npm/@acme/widgets', { headers: { 'if-none-match': etag } });
      expect(b.status).toBe(200);
      expect(text(await b.text())).toContain('Dated observations 6, first 2025-06-01, last 2026-04-03');
    } finally {
      await spare.dispose();
    }
    expect(before.status).toBe(200);
  });

  it('leads the search box to the package page, whatever form the name is typed in', async () => {
    for (const [q, to] of [
      ['left-padded', '/npm/left-padded'],
      ['  @acme/widgets ', '/npm/@acme/widgets'],
      ['pkg:npm/%40acme/widgets@2.1.0', '/npm/@acme/widgets'],
      ['https://www.npmjs.com/package/left-padded', '/npm/left-padded'],
      ['@acme/widgets@2.1.0', '/npm/@acme/widgets'],
      ['left-padded@1.1.0', '/npm/left-padded'],
    ]) {
      const res = await app.request(`/search?q=${encodeURIComponent(q!)}`);
      expect(res.status, q).toBe(303);
      expect(res.headers.get('location'), q).toBe(to);
    }
    expect((await app.request('/search?q=')).headers.get('location')).toBe('/');
    const bad = await get('/search?q=' + encodeURIComponent('not a name'));
    expect(bad.status).toBe(422);
    expect(text(bad.text)).toContain('is not a component name');
    // A pasted address with a broken %-escape is a name that cannot be read: the same 422 page, not a 500.
    for (const q of ['https://www.npmjs.com/package/%E0', 'https://npmjs.com/package/%40acme%2', 'pkg:npm/%E0']) {
      const page = await get('/search?q=' + encodeURIComponent(q));
      expect(page.status, q).toBe(422);
      expect(page.headers.get('content-type'), q).toMatch(/^text\/html/);
      expect(text(page.text), q).toContain('is not a component name');
      const json = await app.request('/search?q=' + encodeURIComponent(q), { headers: { accept: 'application/json' } });
      expect(json.status, q).toBe(422);
      expect(((await json.json()) as { detail: string }).detail, q).toMatch(/Search by part of a name \(rocket\)/);
    }
    expect(text((await get('/search?q=' + encodeURIComponent('https://www.npmjs.com/package/%E0'))).text)).toContain(
      'broken %-escape',
    );
  });

  it('writes crawler files: sitemap of qualified pages, robots naming it, llms.txt, prices from config', async () => {
    const sitemap = (await get('/sitemap.xml')).text;
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(sitemap).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(locs).toEqual([
      `${BASE}/`,
      `${BASE}/methodology`,
      `${BASE}/verify`,
      `${BASE}/terms`,
      `${BASE}/separation`,
      // Every page in the store's key order: by kind, then id, byte for byte; the packages with a
      // census at the threshold among the held repository, image, release and NuGet package.
      `${BASE}/cargo/rocket-rs`,
      `${BASE}/composer/acme/rocket-php`,
      `${BASE}/distro/debian/12`,
      `${BASE}/docker/library/node:18-alpine`,
      `${BASE}/gem/rocket-rb`,
      `${BASE}/github/acme/rocket`,
      `${BASE}/golang/github.com/acme/rocket`,
      `${BASE}/maven/org.acme/rocket-core`,
      `${BASE}/npm/@acme/widgets`,
      `${BASE}/npm/left-padded`,
      `${BASE}/nuget/acme.rocket`,
      `${BASE}/pypi/tiny-parser`,
    ]);
    // Each listed URL is a full page, meant to be indexed: 200, and no noindex.
    for (const loc of locs) {
      const page = await get(loc!.slice(BASE.length));
      expect(page.status, loc).toBe(200);
      expect(page.text, loc).not.toContain('noindex');
    }
    // A held repository's lastmod: its latest reading.
    expect(sitemap).toMatch(
      new RegExp(`<url><loc>${BASE}/github/acme/rocket</loc><lastmod>\\d{4}-\\d{2}-\\d{2}</lastmod></url>`),
    );
    // Each package's lastmod: the later of its census and its latest reading.
    expect(sitemap).toContain(`<url><loc>${BASE}/npm/left-padded</loc><lastmod>2026-04-02</lastmod></url>`);
    expect((await get('/robots.txt')).text).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    const llms = (await get('/llms.txt')).text;
    expect(llms).toMatch(/^# Tended\n\n> /);
    expect(llms).toContain(`${BASE}/verify`);
    const prices = parsedAs<Prices>((await get('/prices.json')).text);
    expect(prices.tiers).toEqual([
      expect.objectContaining({ name: 'free', requests_per_minute: 61, key_required: false }),
      expect.objectContaining({ name: 'keyed', requests_per_minute: 601, key_required: true, key_header: 'X-API-Key' }),
    ]);
    expect(prices.same_record_for_everyone).toBe(true);
    expect(text((await get('/separation')).text)).toContain('paying buys rate, never a different record');
  });

  it('gives /verify a machine form that matches the head', async () => {
    const res = await app.request('/verify', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('Accept');
    const body = await jsonOf(res);
    const head = await jsonOf<HeadAnswer>(await app.request('/api/chain/head'));
    expect(body).toMatchObject({
      origin: head.origin,
      verifier_key: head.verifier_key,
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      checkpoint: head.checkpoint,
    });
    expect(text((await get('/verify')).text)).toContain(head.verifier_key);
  });

  it('renders valid HTML on every page type, with parseable JSON-LD', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:recommended'],
      // hono/jsx writes void elements as <meta/> and booleans as required="": both valid HTML, style choices.
      rules: {
        'void-style': ['error', { style: 'selfclose' }],
        'attribute-boolean-style': ['error', { style: 'empty' }],
      },
    });
    for (const path of [
      ...PAGES,
      '/npm/left-pad',
      '/npm/evil-pkg',
      '/search?q=not%20a%20name',
      '/npm/left-padded?as_of=2025-01-01',
    ]) {
      const page = (await get(path)).text;
      const report = await validator.validateString(page);
      const messages = report.results.flatMap((r) =>
        r.messages.map((m) => `${m.ruleId}: ${m.message} (${m.line}:${m.column})`),
      );
      expect(messages, path).toEqual([]);
      for (const block of jsonLd(page))
        expect(block, path).toMatchObject({ '@context': 'https://schema.org', '@type': anyOf(String) });
    }
  });
});

describe('the pages on PostgreSQL', () => {
  it('serve the same package page, 404 and sitemap as on SQLite', async () => {
    const pg = await postgresTestStore();
    try {
      const other = await fillPageRecord(pg.store);
      await other.harness.close();
      const local = build({
        ...other,
        sources: other.harness.sources,
        logError: (e) => console.error(e),
        publicUrl: BASE,
      });
      const page = await local.request('/npm/left-padded', { headers: html });
      expect(page.status).toBe(200);
      const body = text(await page.text());
      expect(body).toContain('Dated observations 5, first 2025-06-01, last 2026-04-02');
      expect(body).toContain('dormant → archived observed 2025-11-20');
      expect((await local.request('/npm/evil-pkg')).status).toBe(200);
      expect((await local.request('/npm/left-pad')).status).toBe(404);
      expect(await (await local.request('/sitemap.xml')).text()).toContain(`<loc>${BASE}/npm/@acme/widgets</loc>`);
    } finally {
      await pg.dispose();
    }
  });
});

describe('a sitemap past 50,000 pages', () => {
  it('becomes a sitemap index whose parts list every qualified page once', async () => {
    const big = await sqliteTestStore();
    try {
      const notary = filled.notary;
      await big.store.initialiseLog(notary.seal);
      const total = SITEMAP_MAX_URLS + 10;
      for (let from = 0; from < total; from += 10_000) {
        const reads = Array.from({ length: Math.min(10_000, total - from) }, (_, i) => {
          const id = `pkg-${String(from + i).padStart(6, '0')}`;
          return {
            component: { kind: 'npm' as const, id },
            read_at: '2026-04-02T03:00:00Z',
            read_date: '2026-04-02',
            dependents: 3,
            source: `https://deps.example/${id}`,
            evidence: { http_status: 200 },
            method: 'dependents count',
          };
        });
        await big.store.appendCensus(reads, notary.seal);
      }
      const local = build({
        store: big.store,
        notary,
        clock: filled.clock,
        sources: filled.harness.sources,
        logError: () => {},
        publicUrl: BASE,
      });
      const index = await (await local.request('/sitemap.xml')).text();
      expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
        `${BASE}/sitemaps/1.xml`,
        `${BASE}/sitemaps/2.xml`,
      ]);
      const parts = await Promise.all([1, 2].map(async (n) => (await local.request(`/sitemaps/${n}.xml`)).text()));
      const locs = parts.flatMap((p) => [...p.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
      expect(parts[0]!.match(/<url>/g)).toHaveLength(SITEMAP_MAX_URLS);
      expect(locs).toHaveLength(total + 5);
      expect(new Set(locs).size).toBe(total + 5);
      expect(locs).toContain(`${BASE}/npm/pkg-050009`);
      expect((await local.request('/sitemaps/3.xml')).status).toBe(404);
      expect((await local.request('/sitemaps/x.xml')).status).toBe(404);
    } finally {
      await big.dispose();
    }
  }, 120_000);
});
