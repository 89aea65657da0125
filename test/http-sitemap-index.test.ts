import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewCensus } from '../src/domain/census.js';
import type { ComponentKind } from '../src/domain/component.js';
import type { NewObservation } from '../src/domain/observation.js';
import { build } from '../src/http/app.js';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../src/pages/sitemap.js';
import { SEARCH_LIMIT } from '../src/pages/search.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Pages at the scale of a followed registry: 55,000 packages qualify, so the sitemap is
 * an index of files each within the protocol's caps, every qualifying package listed exactly once
 * with its lastmod, and llms.txt, the home page and search stay the size they are for ten packages.
 */

const BASE = 'https://tended.example';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const STATIC = ['/', '/methodology', '/verify', '/terms', '/separation'];
const DAY = '2026-04-02';
// Qualifying packages in three registries, and some that do not qualify (a count of 0, a failed read).
const QUALIFYING: [ComponentKind, string, number][] = [
  ['npm', 'pkg', 40_000],
  ['pypi', 'py', 12_000],
  ['cargo', 'crate', 3_000],
];
const HELD = 3_000;
const name = (prefix: string, i: number) => `${prefix}-${String(i).padStart(6, '0')}`;

let t: TestStore;
let harness: Harness;
let app: ReturnType<typeof build>;
const expected = new Set<string>();

/** Census reads appended the real way, in large batches: each a leaf of the log, as a census writes them. */
async function appendInBulk(deps: ReturnType<typeof recordDeps>, reads: NewCensus[]) {
  for (let i = 0; i < reads.length; i += 25_000)
    await t.store.appendCensus(reads.slice(i, i + 25_000), deps.notary.seal);
}

beforeAll(async () => {
  t = await sqliteTestStore();
  harness = await startHarness({ scenario: { components: {} }, today: DAY });
  const deps = recordDeps(t.store, `${DAY}T12:00:00Z`);
  await t.store.initialiseLog(deps.notary.seal);
  const census = (kind: ComponentKind, id: string, dependents: number | null, date = '2026-04-01'): NewCensus => ({
    component: { kind, id },
    read_at: `${date}T03:00:00Z`,
    read_date: date,
    dependents,
    source: `https://packages.ecosyste.ms/api/v1/registries/x/packages?page=1`,
    evidence: { http_status: 200 },
    method: 'ecosyste.ms listing',
  });
  const reads: NewCensus[] = [];
  for (const [kind, prefix, n] of QUALIFYING)
    for (let i = 0; i < n; i++) {
      reads.push(census(kind, name(prefix, i), 1 + (i % 50)));
      expected.add(`${BASE}/${kind}/${name(prefix, i)}`);
    }
  for (let i = 0; i < 1_000; i++) reads.push(census('npm', name('none', i), i % 2 === 0 ? 0 : null));
  await appendInBulk(deps, reads);
  // Some packages observed after their census: their lastmod is the reading's date. All are held, for search.
  const observations: NewObservation[] = Array.from({ length: HELD }, (_, i) => ({
    component: { kind: 'npm', id: name('pkg', i) },
    observed_at: `${DAY}T06:00:00Z`,
    observation_date: DAY,
    state: 'alive',
    source: `https://registry.npmjs.org/${name('pkg', i)}`,
    evidence: { http_status: 200 },
    method: 'npm registry full packument',
    corrects: null,
  }));
  await t.store.appendObservations(observations, deps.notary.seal);
  app = build({ ...deps, sources: harness.sources, logError: (e) => console.error(e), publicUrl: BASE });
}, 60_000);
afterAll(async () => {
  await harness.close();
  await t.dispose();
});

const get = async (path: string) => {
  const res = await app.request(path, { headers: { accept: 'text/html' } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const parser = new XMLParser({ ignoreAttributes: false, isArray: (tag) => tag === 'url' || tag === 'sitemap' });
const W3C_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The sitemap schema's shape: the root, its namespace, and only the elements it allows, each as it must be. */
function parsed(xml: string, root: 'urlset' | 'sitemapindex') {
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const doc = parser.parse(xml) as Record<string, Record<string, unknown>>;
  expect(Object.keys(doc).filter((k) => k !== '?xml')).toEqual([root]);
  const body = doc[root]!;
  expect(body['@_xmlns']).toBe(NS);
  const child = root === 'urlset' ? 'url' : 'sitemap';
  expect(Object.keys(body).filter((k) => !k.startsWith('@_'))).toEqual([child]);
  const entries = body[child] as Record<string, unknown>[];
  // One assertion over all entries: a hundred thousand expect calls would be most of the test's time.
  const bad = entries.filter(
    (e) =>
      !Object.keys(e).every((k) => k === 'loc' || k === 'lastmod') ||
      typeof e['loc'] !== 'string' ||
      e['loc'].length >= 2_048 ||
      !e['loc'].startsWith(`${BASE}/`) ||
      ('lastmod' in e && !W3C_DATE.test(String(e['lastmod']))),
  );
  expect(bad).toEqual([]);
  return entries as { loc: string; lastmod?: string }[];
}

describe('pages for 55,000 qualifying packages', () => {
  it('publish a sitemap index whose files each hold at most 50,000 valid URLs, every package exactly once', async () => {
    const index = await get('/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.type).toMatch(/^application\/xml/);
    const files = parsed(index.text, 'sitemapindex');
    const total = expected.size + STATIC.length;
    expect(files.map((f) => f.loc)).toEqual(
      Array.from({ length: Math.ceil(total / SITEMAP_MAX_URLS) }, (_, i) => `${BASE}/sitemaps/${i + 1}.xml`),
    );
    const seen = new Map<string, number>();
    for (const [n, f] of files.entries()) {
      const part = await get(new URL(f.loc).pathname);
      expect(part.status).toBe(200);
      expect(Buffer.byteLength(part.text)).toBeLessThanOrEqual(SITEMAP_MAX_BYTES);
      const urls = parsed(part.text, 'urlset');
      expect(urls.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
      // Every file but the last is full.
      if (n < files.length - 1) expect(urls).toHaveLength(SITEMAP_MAX_URLS);
      for (const u of urls) seen.set(u.loc, (seen.get(u.loc) ?? 0) + 1);
      // Every package's URL has its lastmod (the site's own pages have none to give).
      expect(urls.filter((u) => u.lastmod === undefined).map((u) => u.loc)).toEqual(
        n === 0 ? STATIC.map((p) => `${BASE}${p}`) : [],
      );
      // The index gives each file the latest lastmod of its URLs.
      expect(f.lastmod).toBe(
        urls
          .map((u) => u.lastmod ?? '')
          .sort()
          .at(-1),
      );
    }
    expect(seen.size).toBe(total);
    expect([...seen.values()].every((c) => c === 1)).toBe(true);
    expect([...expected].filter((loc) => !seen.has(loc))).toEqual([]);
    for (const path of STATIC) expect(seen.has(`${BASE}${path}`)).toBe(true);
    // Packages that do not qualify (0, or a failed read) are in no file.
    expect([...seen.keys()].some((loc) => loc.includes('/none-'))).toBe(false);
    // lastmod is when the page last changed: the reading after the census, or the census.
    const part1 = (await get('/sitemaps/1.xml')).text;
    expect(part1).toContain(`<url><loc>${BASE}/cargo/crate-000000</loc><lastmod>2026-04-01</lastmod></url>`);
    const all = (await Promise.all(files.map((f) => get(new URL(f.loc).pathname)))).map((p) => p.text).join('');
    expect(all).toContain(`<url><loc>${BASE}/npm/pkg-000007</loc><lastmod>${DAY}</lastmod></url>`);
    expect(all).toContain(`<url><loc>${BASE}/npm/pkg-039999</loc><lastmod>2026-04-01</lastmod></url>`);
    expect((await get(`/sitemaps/${files.length + 1}.xml`)).status).toBe(404);
  }, 60_000);

  it('keep llms.txt and the home page small: links and a bounded list, never every package', async () => {
    const llms = await get('/llms.txt');
    expect(llms.status).toBe(200);
    expect(Buffer.byteLength(llms.text)).toBeLessThan(8_192);
    expect(llms.text).not.toMatch(/pkg-\d/);
    expect(llms.text).toContain(`${BASE}/sitemap.xml`);
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(Buffer.byteLength(home.text)).toBeLessThan(32_768);
    expect(home.text).toContain(`${expected.size} packages with a page`);
    expect(home.text.match(/pkg-\d{6}/g) ?? []).toHaveLength(0);
  });

  it('keeps search bounded among thousands of held names: at most a page of results, in order, at once', async () => {
    const started = performance.now();
    const res = await app.request('/search?q=pkg-00', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { kind: string; id: string; page: string }[] };
    expect(body.results).toHaveLength(SEARCH_LIMIT);
    expect(body.results.map((r) => r.id)).toEqual(Array.from({ length: SEARCH_LIMIT }, (_, i) => name('pkg', i)));
    expect(performance.now() - started).toBeLessThan(1_000);
    // A name only counted (no reading held) is not a search result; an exact held name goes to its page.
    expect((await app.request('/search?q=py-00001', { headers: { accept: 'application/json' } })).status).toBe(404);
    const exact = await app.request(`/search?q=${name('pkg', HELD - 1)}`);
    expect(exact.status).toBe(303);
    expect(exact.headers.get('location')).toBe(`/npm/${name('pkg', HELD - 1)}`);
  });
});
