import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { build } from '../src/http/app.js';
import { stringContaining } from './support/matchers.js';
import { fillPageRecord, LAST_DAY } from './support/pages-record.js';
import { sqliteTestStore, type TestStore } from './support/record.js';

// Issue 27, items 3 and 4: finding a component (search by part of a name and by pasted forms, a
// page for every kind held, an HTML 404) and what its page shows (the version, the repository, a
// relocation's target, states told apart, the methodology's thresholds).
let t: TestStore;
let filled: Awaited<ReturnType<typeof fillPageRecord>>;
let app: ReturnType<typeof build>;
const BASE = 'https://tended.example';

beforeAll(async () => {
  t = await sqliteTestStore();
  filled = await fillPageRecord(t.store);
  // A relocated Maven artifact: the notice names its target, which the page must link.
  const moved = normaliseComponent('maven', 'org.acme:rocket-old');
  await t.store.appendObservations(
    [
      {
        component: moved,
        observed_at: `${LAST_DAY}T12:00:00Z`,
        observation_date: LAST_DAY,
        state: 'archived',
        source: 'https://repo.maven.apache.org/maven2/org/acme/rocket-old/2.0/rocket-old-2.0.pom',
        evidence: {
          http_status: 200,
          latest_release: '2.0',
          published: '2025-01-10T09:00:00Z',
          relocated: true,
          relocated_to: 'org.acme:rocket-core',
        },
        method: 'maven',
        corrects: null,
      },
    ],
    filled.notary.seal,
  );
  await t.store.appendCensus(
    [
      {
        component: moved,
        read_at: `${LAST_DAY}T13:00:00Z`,
        read_date: LAST_DAY,
        dependents: 2,
        source: 'https://dependents.example/org.acme:rocket-old',
        evidence: { http_status: 200 },
        method: 'dependents count',
      },
    ],
    filled.notary.seal,
  );
  app = build({ ...filled, sources: filled.harness.sources, logError: (e) => console.error(e), publicUrl: BASE });
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
const text = (page: string) =>
  page
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
const links = (page: string) => [...page.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
const search = (q: string, headers?: Record<string, string>) =>
  app.request(`/search?q=${encodeURIComponent(q)}`, { headers });

describe('finding a component (issue 27, item 3)', () => {
  it('lists every held component a partial name begins, of every kind, and keeps the query', async () => {
    const page = await get(`/search?q=rocket`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Components matching “rocket”</h1>');
    expect(page.text).toMatch(/<input id="results-search"[^>]*value="rocket"/);
    // By name, then kind: "rocket" (a repository, a module), then "rocket-core", "rocket-old", "rocket-php", "rocket-rb", "rocket-rs".
    const results = /<ul class="results">[\s\S]*?<\/ul>/.exec(page.text)![0];
    expect(links(results)).toEqual([
      '/github/acme/rocket',
      '/golang/github.com/acme/rocket',
      '/maven/org.acme/rocket-core',
      '/maven/org.acme/rocket-old',
      '/composer/acme/rocket-php',
      '/gem/rocket-rb',
      '/cargo/rocket-rs',
    ]);
    expect(text(page.text)).toContain('rocket-rs crate');
    // Programs get the same list as JSON.
    const json = await search('rock', { accept: 'application/json' });
    expect(json.status).toBe(200);
    const body = (await json.json()) as { query: string; results: { kind: string; id: string; page: string }[] };
    expect(body.query).toBe('rock');
    expect(body.results.map((r) => r.page)).toContain('/cargo/rocket-rs');
    // A NuGet id is matched from its start: acme.rocket by "acme", not by "rock".
    expect(body.results.map((r) => r.page)).not.toContain('/nuget/acme.rocket');
    expect(links((await get('/search?q=acme')).text)).toContain('/nuget/acme.rocket');
  });

  it('finds by other prefixes of a name: an image, a distribution, a scope', async () => {
    for (const [q, has] of [
      ['node', '/docker/library/node:18-alpine'],
      ['Debian', '/distro/debian/12'],
      ['@acme/', '/npm/@acme/widgets'],
      ['widg', '/npm/@acme/widgets'],
      ['acme.', '/nuget/acme.rocket'],
    ]) {
      const page = await get(`/search?q=${encodeURIComponent(q!)}`);
      expect(page.status, q).toBe(200);
      expect(links(page.text), q).toContain(has);
    }
  });

  it('goes straight to the page from the forms people paste', async () => {
    for (const [q, to] of [
      ['acme/rocket', '/github/acme/rocket'],
      ['Acme/Rocket', '/github/acme/rocket'],
      ['https://github.com/acme/rocket', '/github/acme/rocket'],
      ['https://github.com/acme/rocket.git', '/github/acme/rocket'],
      ['https://github.com/acme/rocket/tree/main/src', '/github/acme/rocket'],
      ['github:acme/rocket', '/github/acme/rocket'],
      ['pkg:github/acme/rocket', '/github/acme/rocket'],
      ['docker:node:18-alpine', '/docker/library/node:18-alpine'],
      ['node:18-alpine', '/docker/library/node:18-alpine'],
      ['docker.io/library/node:18-alpine', '/docker/library/node:18-alpine'],
      ['pkg:docker/library/node@18-alpine', '/docker/library/node:18-alpine'],
      ['org.acme:rocket-core', '/maven/org.acme/rocket-core'],
      ['acme/rocket-php', '/composer/acme/rocket-php'],
      ['distro:debian/12', '/distro/debian/12'],
      ['nuget:Acme.Rocket', '/nuget/acme.rocket'],
    ]) {
      const res = await search(q!);
      expect(res.status, q).toBe(303);
      expect(res.headers.get('location'), q).toBe(to);
    }
  });

  it('says when nothing held matches, as "not checked", and queues nothing', async () => {
    const before = (await t.store.watchList()).length;
    const page = await get('/search?q=zeppelin');
    expect(page.status).toBe(404);
    expect(page.text).toContain('<h1>Nothing held matches “zeppelin”</h1>');
    expect(text(page.text)).toContain('That means not checked, never gone');
    expect((await t.store.watchList()).length).toBe(before);
  });

  it('escapes the query everywhere it is shown', async () => {
    const page = await get(`/search?q=${encodeURIComponent('a"<b>')}`);
    expect(page.status).toBe(422);
    expect(page.text).not.toContain('<b>');
    expect(page.text).toContain('&lt;b&gt;');
  });

  it('gives a GitHub repository, an image, a distribution release and a NuGet package a page', async () => {
    const repo = await get('/github/acme/rocket');
    expect(repo.status).toBe(200);
    const r = text(repo.text);
    expect(repo.text).toContain('<h1>is acme/rocket still maintained?</h1>');
    expect(r).toContain('Last commit or push commit d176018a151e (2025-08-29)');
    expect(r).toContain('Archived flag none on record');
    expect(r).toContain('Adoption not counted: Tended reads no dependents count for a GitHub repository');
    expect(r).toContain('Registry GitHub (source repositories)');
    expect(repo.text).toContain('<a href="https://github.com/acme/rocket">registry page</a>');

    const image = await get('/docker/library/node:18-alpine');
    expect(image.status).toBe(200);
    const i = text(image.text);
    expect(image.text).toContain('<h1>is docker.io/library/node:18-alpine still maintained?</h1>');
    expect(i).toContain('Tag last pushed digest sha256:5e4b1a2d6abc… (2025-03-27)');
    expect(i).toContain('Deprecation or end of life end of life: nodejs 18 since 2025-04-30');
    expect(image.text).toContain('<a href="https://hub.docker.com/_/node/tags">registry page</a>');
    // Every spelling of the reference reaches the page, whose canonical address is one.
    for (const path of ['/docker/node:18-alpine', '/docker/docker.io/library/node:18-alpine'])
      expect((await get(path)).text, path).toContain(
        `<link rel="canonical" href="${BASE}/docker/library/node:18-alpine"`,
      );

    const distro = await get('/distro/debian/12');
    expect(distro.status).toBe(200);
    expect(text(distro.text)).toContain('Latest point release 12.11 (2025-05-17)');
  });

  it('makes the badge Markdown each page offers link to a page that exists', async () => {
    for (const path of [
      '/github/acme/rocket',
      '/docker/library/node:18-alpine',
      '/nuget/acme.rocket',
      '/npm/left-padded',
    ]) {
      const page = text((await get(path)).text);
      const m =
        /\[!\[maintained\? [^\]]+\]\((https:\/\/tended\.example\/badge\/[^)]+)\)\]\(https:\/\/tended\.example(\/[^)]+)\)/.exec(
          page,
        );
      expect(m, path).not.toBeNull();
      expect(m![2], path).toBe(path);
      expect((await app.request(m![1]!.slice(BASE.length))).status, path).toBe(200);
    }
  });

  it('answers an unknown address asked for as HTML with an HTML 404 page, and programs with JSON', async () => {
    const page = await get('/no/such/page');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Page not found</h1>');
    expect(page.text).toContain('action="/search"');
    const machine = await app.request('/no/such/page', { headers: { accept: 'application/json' } });
    expect(machine.status).toBe(404);
    expect(await machine.json()).toEqual({ detail: stringContaining('There is nothing at /no/such/page') });
  });

  it('states which components get a page', async () => {
    const page = text((await get('/methodology')).text);
    expect(page).toContain(
      'A component of a kind with no dependents count — a GitHub repository, a container image, a distribution release, a NuGet package — gets a page once the record holds an observation of it',
    );
  });
});

describe('what a page shows (issue 27, item 4)', () => {
  it('names the version the evidence holds and links the source repository and its record', async () => {
    const page = await get('/npm/left-padded');
    expect(text(page.text)).toContain('Latest published version 1.1.0 (2024-12-01)');
    expect(page.text).toContain('<a href="https://github.com/acme/left-padded">source repository</a>');
    expect(page.text).toContain('<a href="/github/acme/left-padded">its record</a>');
    const module = await get('/golang/github.com/acme/rocket');
    expect(module.text).toContain('<a href="https://github.com/acme/rocket">source repository</a>');
  });

  it('shows on a page as of a past date the badge for that date, not today’s', async () => {
    const page = (await get('/npm/left-padded?as_of=2025-08-01')).text;
    expect(page).toContain('<img src="/badge/npm/left-padded.svg?as_of=2025-08-01"');
    const badge = await (await app.request('/badge/npm/left-padded.svg?as_of=2025-08-01')).text();
    expect(badge).toMatch(/aria-label="maintained\?: dormant · 2025-07-15"/);
    expect((await get('/npm/left-padded')).text).toContain('<img src="/badge/npm/left-padded.svg"');
  });

  it('links a Maven relocation’s target', async () => {
    const page = await get('/maven/org.acme/rocket-old');
    expect(page.status).toBe(200);
    expect(text(page.text)).toContain('Deprecation notice relocated to org.acme:rocket-core');
    expect(text(page.text)).toContain('The registry names a successor: maven:org.acme:rocket-core');
    expect(page.text).toContain('<a href="/maven/org.acme/rocket-core">maven:org.acme:rocket-core</a>');
    expect(page.text).toContain(
      '<a href="https://central.sonatype.com/artifact/org.acme/rocket-core">on Maven Central</a>',
    );
  });

  it('answers the relocation’s target as the successor in the API’s trust_score answer', async () => {
    const res = await get('/v1/trust_score/maven/org.acme:rocket-old', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({
      state: 'archived',
      successor: { kind: 'maven', name: 'org.acme:rocket-core' },
    });
  });

  it('draws each state of the timeline with its own pattern, shown again in the legend, and its dates as text', async () => {
    const page = (await get('/pypi/tiny-parser')).text;
    const svg = /<svg class="timeline"[\s\S]*?<\/svg>/.exec(page)![0];
    const fills = new Map(
      [...svg.matchAll(/<rect class="seg-([\w-]+)" fill="url\(#([\w-]+)\)"/g)].map((m) => [m[1], m[2]]),
    );
    expect([...fills.keys()].sort()).toEqual(['alive', 'archived', 'dormant']);
    expect(new Set(fills.values()).size).toBe(3);
    for (const id of fills.values()) expect(svg).toContain(`<pattern id="${id}"`);
    // The latest reading, one day of ten months, is still drawn wide enough to see.
    const widths = [...svg.matchAll(/<rect class="seg-[\w-]+"[^>]* width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(5);
    expect(widths.at(-1)).toBeGreaterThanOrEqual(24);
    expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(800, 0);
    // No text inside the drawing: it would shrink with it on a phone.
    expect(svg).not.toContain('<text');
    expect(page).toMatch(/<p class="timeline-dates"><span>2025-06-01<\/span><span>2026-04-02<\/span><\/p>/);
    const legend = /<ul class="legend">[\s\S]*?<\/ul>/.exec(page)![0];
    for (const id of fills.values()) expect(legend).toContain(`fill="url(#${id})"`);
  });

  it('gives the age states in whole days that do not overlap, and never breaks a state name', async () => {
    const page = (await get('/methodology')).text;
    const body = text(page);
    expect(body).toContain('alive last commit 180 days ago or less d ≤ 180');
    expect(body).toContain('dormant last commit 180 to 365 days ago 181 ≤ d ≤ 365');
    expect(body).toContain('abandoned last commit more than 365 days ago d > 365');
    expect(page).toContain('<code class="state-name">unknown-stale</code>');
    const css = await (await app.request('/assets/site.css')).text();
    expect(css).toMatch(/code\.state-name, \.state \{ white-space: nowrap; overflow-wrap: normal; \}/);
  });

  it('links the latest leaf to /verify, whose page shows that leaf’s content once checked', async () => {
    const page = (await get('/npm/left-padded')).text;
    const leaf = /<a href="\/verify\?index=(\d+)">/.exec(page)![1];
    expect(Number(leaf)).toBeGreaterThan(0);
    const verify = (await get(`/verify?index=${leaf}`)).text;
    expect(verify).toContain('<h2 id="leaf-heading">What the leaf says</h2>');
    expect(verify).toContain('<div id="leaf-content" aria-live="polite">');
    const script = await (await app.request('/assets/verify.js')).text();
    expect(script).toContain('showLeaf(bytes, index);');
  });

  it('renders valid HTML on the new pages', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:recommended'],
      rules: {
        'void-style': ['error', { style: 'selfclose' }],
        'attribute-boolean-style': ['error', { style: 'empty' }],
      },
    });
    for (const path of [
      '/github/acme/rocket',
      '/docker/library/node:18-alpine',
      '/distro/debian/12',
      '/nuget/acme.rocket',
      '/maven/org.acme/rocket-old',
      '/search?q=rocket',
      '/search?q=zeppelin',
      '/no/such/page',
      '/verify?index=3',
      '/methodology',
      '/',
    ]) {
      const report = await validator.validateString((await get(path)).text);
      const messages = report.results.flatMap((r) =>
        r.messages.map((m) => `${m.ruleId}: ${m.message} (${m.line}:${m.column})`),
      );
      expect(messages, path).toEqual([]);
    }
  });
});
