import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import { axeViolations, chromiumToDrive } from './support/chromium.js';
import { jsonOf } from './support/json.js';
import { fillPageRecord } from './support/pages-record.js';
import { sqliteTestStore, testNotary, type TestStore } from './support/record.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

let t: TestStore;
let filled: Awaited<ReturnType<typeof fillPageRecord>>;
let server: ServerType;
let base: string;
let context: BrowserContext;
let profile: string;

beforeAll(async () => {
  const browser = await chromiumToDrive();
  t = await sqliteTestStore();
  filled = await fillPageRecord(t.store);
  const app = build({ ...filled, sources: filled.harness.sources, logError: (e) => console.error(e) });
  base = await new Promise<string>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  profile = mkdtempSync(join(tmpdir(), 'tended-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    headless: true,
    args: [...new Set(browser.args)],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 90_000);

afterAll(async () => {
  await context?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await filled?.harness.close();
  await t?.dispose();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function open(path: string): Promise<{ page: Page; status: number }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const response = await page.goto(`${base}${path}`, { waitUntil: 'load' });
  expect(errors, path).toEqual([]);
  return { page, status: response!.status() };
}

/** What a Content-Security-Policy without 'unsafe-inline' would block: inline script other than data, and style attributes. */
async function inlineExecutables(page: Page): Promise<{ scripts: number; styles: number }> {
  return page.evaluate(() => ({
    scripts: [...document.querySelectorAll('script:not([src])')].filter(
      (s) => s.getAttribute('type') !== 'application/ld+json',
    ).length,
    styles: document.querySelectorAll('[style]').length,
  }));
}

describe('the pages in Chromium', () => {
  it.each([
    ['/', 'Is it still maintained?', 200],
    ['/npm/left-padded', 'is left-padded still maintained?', 200],
    ['/npm/@acme/widgets?as_of=2025-08-01', 'is @acme/widgets still maintained?', 200],
    ['/methodology', 'Methodology', 200],
    ['/terms', 'Terms', 200],
    ['/separation', 'Separation', 200],
    ['/verify', 'Verify the log', 200],
    ['/npm/left-pad', 'No page for left-pad', 404],
    ['/github/acme/rocket', 'is acme/rocket still maintained?', 200],
    ['/docker/library/node:18-alpine', 'is docker.io/library/node:18-alpine still maintained?', 200],
    ['/search?q=rocket', 'Components matching “rocket”', 200],
    ['/no/such/page', 'Page not found', 404],
  ] as const)('%s renders, uses the stylesheet, and has no axe violations', async (path, heading, status) => {
    const { page, status: got } = await open(path);
    expect(got).toBe(status);
    expect(await page.locator('h1').innerText()).toBe(heading);
    // The stylesheet applied: the header is laid out as a flex row.
    expect(await page.locator('header.site-header').evaluate((el) => getComputedStyle(el).display)).toBe('flex');
    expect(await inlineExecutables(page)).toEqual({ scripts: 0, styles: 0 });
    if (path === '/verify')
      await expect
        .poll(() => page.locator('#verify-result').getAttribute('class'), { timeout: 10_000 })
        .toBe('result ok');
    expect(await axeViolations(page)).toEqual([]);
    // The dark scheme has its own colours: they must pass the contrast checks too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload({ waitUntil: 'load' });
    if (path === '/verify')
      await expect
        .poll(() => page.locator('#verify-result').getAttribute('class'), { timeout: 10_000 })
        .toBe('result ok');
    expect(await axeViolations(page), `${path} (dark)`).toEqual([]);
    await page.close();
  });

  it('leads the search box to the package page, without JavaScript', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.locator('#home-search').fill('@acme/widgets');
    await Promise.all([page.waitForURL(`${base}/npm/@acme/widgets`), page.locator('#home-search').press('Enter')]);
    expect(await page.locator('h1').innerText()).toBe('is @acme/widgets still maintained?');
    expect(await page.locator('dl.facts').innerText()).toContain('12 dependent packages');
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'package-page.png'), fullPage: true });
    await page.close();
  });

  it('draws the badge on the package page and on its own, and a 400 badge is still an image', async () => {
    const { page } = await open('/npm/left-padded');
    const img = page.locator('img[src^="/badge/"]');
    expect(await img.getAttribute('src')).toBe('/badge/npm/left-padded.svg');
    // Loaded under the page's Content-Security-Policy (img-src 'self'), at the width badge-maker computed.
    await expect
      .poll(() => img.evaluate((el) => ((el as HTMLImageElement).complete ? (el as HTMLImageElement).naturalWidth : 0)))
      .toBeGreaterThan(100);
    await img.screenshot({ path: join(ARTIFACTS, 'badge.png') });
    await page.close();
    for (const [path, status, says] of [
      ['/badge/npm/left-padded.svg', 200, /^maintained\?: archived · 2026-04-02$/],
      ['/badge/npm/Bad%20Name.svg', 400, /^maintained\?: "Bad Name" is not a valid npm id/],
    ] as const) {
      const { page: alone, status: got } = await open(path);
      expect(got).toBe(status);
      const svg = alone.locator('svg');
      expect(await svg.getAttribute('role')).toBe('img');
      expect(await svg.getAttribute('aria-label')).toMatch(says);
      expect((await svg.boundingBox())?.height).toBe(20);
      if (status === 200) await svg.screenshot({ path: join(ARTIFACTS, 'badge-alone.png') });
      await alone.close();
    }
  });

  it('verifies the checkpoint signature and an inclusion proof in the browser', async () => {
    const head = await jsonOf<HeadAnswer>(await fetch(`${base}/api/chain/head`));
    for (const path of ['/verify', '/verify?index=0', `/verify?index=${Math.floor(head.tree_size / 2)}`]) {
      const { page } = await open(path);
      const result = page.locator('#verify-result');
      await expect.poll(() => result.getAttribute('class'), { timeout: 10_000 }).toBe('result ok');
      const text = await result.innerText();
      expect(text).toMatch(/^Leaf \d+ verified: it is in the log of \d+ leaves signed by pages\.tended\.test\/log\.$/);
      expect(text).toContain(`log of ${head.tree_size} leaves`);
      const steps = await page.locator('#verify-steps li').allInnerTexts();
      expect(steps).toHaveLength(6);
      for (const step of steps) expect(step).toMatch(/^ok: /);
      if (path === '/verify') {
        expect(text).toContain(`Leaf ${head.tree_size - 1} verified`);
        await page.setViewportSize({ width: 1100, height: 900 });
        await page.screenshot({ path: join(ARTIFACTS, 'verify.png'), fullPage: true });
      }
      await page.close();
    }
  });

  it('refuses a checkpoint that the printed key did not sign', async () => {
    const page = await context.newPage();
    // Another log's key: the page's own checkpoint must then fail the signature step.
    await page.route(`${base}/verify`, async (route) => {
      const response = await route.fetch();
      const other = testNotary('pages.tended.test/log').vkey;
      await route.fulfill({
        response,
        body: (await response.text()).replace(/data-vkey="[^"]+"/, `data-vkey="${other}"`),
      });
    });
    await page.goto(`${base}/verify`);
    const result = page.locator('#verify-result');
    await expect.poll(() => result.getAttribute('class'), { timeout: 10_000 }).toBe('result fail');
    expect(await result.innerText()).toMatch(/^Not verified: (no signature by|the signature does not verify)/);
    await page.close();
  });

  // Issue 27's screenshots, each at a desktop width and at a phone's (390 px), with what a phone
  // reader met checked: nothing wider than the screen, the series table whole, the timeline's
  // dates at reading size, one search box.
  const SHOTS: [string, string][] = [
    ['package-page', '/npm/left-padded'],
    ['package-page-as-of', '/npm/left-padded?as_of=2025-08-01'],
    ['github-repository', '/github/acme/rocket'],
    ['image', '/docker/library/node:18-alpine'],
    ['search-results', '/search?q=rocket'],
    ['not-found', '/no/such/page'],
  ];
  it.each(SHOTS)('%s (%s) fits 390 px and is saved at both widths', async (name, path) => {
    const { page } = await open(path);
    for (const [width, suffix] of [
      [1100, 'desktop'],
      [390, '390'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      const fit = await page.evaluate(() => {
        const scroller = document.querySelector('.table-scroll');
        const caption = document.querySelector('.table-scroll caption');
        const dates = document.querySelector('.timeline-dates');
        const visibleSearches = [...document.querySelectorAll('form.search')].filter(
          (f) => (f as HTMLElement).offsetParent !== null,
        ).length;
        return {
          page: document.documentElement.scrollWidth <= window.innerWidth,
          table: scroller === null || scroller.scrollWidth <= scroller.clientWidth,
          caption: caption === null || caption.getBoundingClientRect().right <= window.innerWidth,
          datesPx: dates === null ? null : parseFloat(getComputedStyle(dates).fontSize),
          visibleSearches,
        };
      });
      expect(fit, `${path} at ${width}`).toMatchObject({ page: true, table: true, caption: true, visibleSearches: 1 });
      if (fit.datesPx !== null) expect(fit.datesPx, `${path} at ${width}`).toBeGreaterThanOrEqual(12);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${suffix}.png`), fullPage: true });
    }
    await page.close();
  });

  it('shows on /verify?index=N what the leaf says, tied to the page that linked it', async () => {
    const { page: pkg } = await open('/npm/left-padded');
    const href = await pkg.locator('a[href^="/verify?index="]').getAttribute('href');
    await pkg.close();
    const index = Number(/index=(\d+)/.exec(href!)![1]);
    const { page } = await open(href!);
    await expect
      .poll(() => page.locator('#verify-result').getAttribute('class'), { timeout: 10_000 })
      .toBe('result ok');
    const leaf = await page.locator('#leaf-content').innerText();
    expect(leaf).toContain(`Leaf\n${index}`);
    expect(leaf).toMatch(/kind\nnpm/);
    expect(leaf).toMatch(/id\nleft-padded/);
    expect(leaf).toMatch(/state\narchived/);
    expect(leaf).toMatch(/observation_date\n2026-04-02/);
    expect(await page.locator('#leaf-content a').getAttribute('href')).toBe('/npm/left-padded');
    expect(await axeViolations(page)).toEqual([]);
    for (const [width, suffix] of [
      [1100, 'desktop'],
      [390, '390'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, `verify-leaf-${suffix}.png`), fullPage: true });
    }
    await page.close();
  });

  it('never breaks a state name on /methodology at 390 px', async () => {
    const { page } = await open('/methodology');
    await page.setViewportSize({ width: 390, height: 900 });
    const lines = await page
      .locator('code.state-name')
      .evaluateAll((codes) => codes.map((c) => [c.textContent, c.getClientRects().length]));
    expect(lines).toHaveLength(8);
    for (const [name, rects] of lines) expect(rects, String(name)).toBe(1);
    await page.close();
  });

  // Issue 36, as a person sees it; desktop and 390 px screenshots beside the others.
  const shots = async (page: Page, name: string) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(ARTIFACTS, `issue36-${name}-${width}.png`), fullPage: true });
    }
  };

  it('issue 36: a held package with no page, searched for, shows its state, date, answer and badge', async () => {
    const { page, status } = await open('/search?q=evil-pkg');
    expect(status).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/npm/evil-pkg');
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/^evil-pkg: \w/);
    expect(await page.locator('main').textContent()).toMatch(/as observed \d{4}-\d{2}-\d{2}/);
    expect(await page.locator('a[href="/v1/trust_score/npm/evil-pkg"]').count()).toBe(1);
    expect(
      await page.locator('img[src="/badge/npm/evil-pkg.svg"]').evaluate((i: HTMLImageElement) => i.naturalWidth),
    ).toBeGreaterThan(0);
    await shots(page, 'held-evil-pkg');
    await page.close();
  });

  it('issue 36: /verify?index=9999 says the leaf is not in the log and checks no other leaf', async () => {
    const { page, status } = await open('/verify?index=9999');
    expect(status).toBe(404);
    await expect
      .poll(() => page.locator('#verify-result').textContent(), { timeout: 10_000 })
      .toMatch(/^Leaf 9999 is not in the log/);
    expect(await page.locator('#leaf-problem').textContent()).toMatch(/^Leaf 9999 is not in the log/);
    expect(await page.locator('#verify-steps').textContent()).not.toMatch(/Fetch leaf/);
    await shots(page, 'verify-9999');
    await page.close();
  });

  it('issue 36: the as_of box takes YYYY-MM-DD, shows it back, and the home page states its log head', async () => {
    const { page } = await open('/npm/left-padded');
    const box = page.locator('#as_of');
    expect(await box.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    await box.fill('08/01/2025');
    expect(await box.evaluate((i: HTMLInputElement) => i.validity.patternMismatch)).toBe(true);
    await box.fill('2025-08-01');
    await Promise.all([page.waitForURL(/as_of=2025-08-01/), page.locator('.as-of button').click()]);
    expect(await page.locator('#as_of').inputValue()).toBe('2025-08-01');
    await shots(page, 'package-as-of');
    const home = await open('/');
    expect(await home.page.locator('main').textContent()).toMatch(
      /as the log stood at its head of \d{4}-\d{2}-\d{2}T[\d:.]+Z \(\d+ leaves\)/,
    );
    await shots(home.page, 'home');
    await home.page.close();
    await page.close();
  });
});

// Issue 36 item 3: a phone reader (390 px) sees every page whole, the newest observation without
// scrolling inside a box, words broken only where one is longer than its line, and the whole key.
describe('the pages at 390 px', () => {
  const PHONE_PAGES = [
    '/',
    '/npm/left-padded',
    '/npm/@acme/widgets?as_of=2025-08-01',
    '/pypi/tiny-parser',
    '/nuget/acme.rocket',
    '/github/acme/rocket',
    '/docker/library/node:18-alpine',
    '/distro/debian/12',
    '/search?q=rocket',
    '/verify',
    '/verify?index=0',
    '/methodology',
    '/terms',
    '/separation',
    '/api/v1/reference',
    '/npm/left-pad',
    '/no/such/page',
  ];
  async function phone(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}${path}`, { waitUntil: 'load' });
    return page;
  }

  it.each(PHONE_PAGES)('%s is no wider than the screen', async (path) => {
    const page = await phone(path);
    const width = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      // What sticks out, named in the failure so it can be found.
      past: [...document.body.querySelectorAll('*')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth)
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.slice(0, 40)}`),
    }));
    console.log(`scrollWidth at 390 px: ${path} ${width.scroll}`);
    expect(width.scroll, `${path}: ${width.past.join('; ')}`).toBeLessThanOrEqual(width.inner);
    const name = `wide-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`;
    await page.screenshot({ path: join(ARTIFACTS, `${name}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-desktop.png`), fullPage: true });
    await page.close();
  });

  it.each(['/npm/left-padded', '/pypi/tiny-parser', '/github/acme/rocket', '/distro/debian/12'])(
    '%s shows its newest observation without scrolling inside a box, words whole',
    async (path) => {
      const page = await phone(path);
      const seen = await page.evaluate(() => {
        const rows = [...document.querySelectorAll<HTMLTableRowElement>('table tbody tr')];
        const dateOf = (r: HTMLTableRowElement) => r.cells[0]!.textContent.slice(0, 10);
        const newest = rows.reduce((a, b) => (dateOf(b) > dateOf(a) ? b : a));
        const rect = newest.getBoundingClientRect();
        // Every box around the row that clips or scrolls must show it at its resting scroll position.
        const clipped: string[] = [];
        for (let el = newest.parentElement; el !== null && el !== document.body; el = el.parentElement) {
          const style = getComputedStyle(el);
          if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
          const box = el.getBoundingClientRect();
          if (rect.top < box.top || rect.bottom > box.bottom || rect.left < box.left || rect.right > box.right)
            clipped.push(el.className);
        }
        // A word broken across lines although a line could hold it whole.
        const broken: string[] = [];
        for (const cell of document.querySelectorAll<HTMLTableCellElement>('table td, table th')) {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
            for (const m of text.textContent!.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(text, m.index);
              range.setEnd(text, m.index + m[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size < 2) continue;
              const probe = document.createElement('span');
              probe.textContent = m[0];
              probe.style.whiteSpace = 'nowrap';
              cell.append(probe);
              const whole = probe.getBoundingClientRect().width;
              probe.remove();
              if (whole <= cell.clientWidth) broken.push(m[0]);
            }
          }
        }
        const cells = [...newest.closest('table')!.querySelectorAll('td,th')]
          .map((c) => `${c.textContent}: ${Math.round(c.getBoundingClientRect().width)}`)
          .join(' | ');
        return { newest: dateOf(newest), clipped, broken, firstRow: dateOf(rows[0]!), cells };
      });
      expect(seen.clipped, `${path}: the newest row ${seen.newest} ${seen.cells}`).toEqual([]);
      expect(seen.broken, path).toEqual([]);
      // Newest first: the row a reader reaches first is the one the page answers with.
      expect(seen.firstRow).toBe(seen.newest);
      await page.close();
    },
  );

  it('shows the whole verifier key on /verify', async () => {
    const page = await phone('/verify');
    const key = page.locator('#verifier pre code');
    const fit = await key.evaluate((code) => {
      const rect = code.getBoundingClientRect();
      const pre = code.parentElement!;
      return {
        inViewport: rect.left >= 0 && rect.right <= window.innerWidth,
        notClipped: pre.scrollWidth <= pre.clientWidth,
        text: code.textContent,
      };
    });
    expect(fit).toMatchObject({ inViewport: true, notClipped: true });
    // Selectable whole: the text a reader copies is the key, with nothing added by the wrapping.
    expect(fit.text).toMatch(/^pages\.tended\.test\/log\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/);
    await page.close();
  });
});

// Issue 36 item 11: a person following the home page's API link reads a page, not 79 KB of JSON.
describe('the API reference page', () => {
  it('lists every operation of the OpenAPI document, is linked from the home page, and has no axe violations', async () => {
    const doc = await jsonOf<{ paths: Record<string, Record<string, unknown>> }>(await fetch(`${base}/api/v1/docs`));
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(described.length).toBeGreaterThan(20);
    const { page: home } = await open('/');
    await Promise.all([
      home.waitForURL(`${base}/api/v1/reference`),
      home.locator('a[href="/api/v1/reference"]').first().click(),
    ]);
    expect(await home.locator('h1').innerText()).toBe('API reference');
    expect(await home.locator('section.operation h2').allInnerTexts()).toEqual(described);
    // Each operation's parameters and answers are written out, e.g. the trust facts' kind and its 422.
    const trust = home.locator('#get-v1-trust-score-kind-id');
    expect(await trust.innerText()).toMatch(/kind \(path, required\)[\s\S]*422/);
    expect(await inlineExecutables(home)).toEqual({ scripts: 0, styles: 0 });
    expect(await axeViolations(home)).toEqual([]);
    await home.emulateMedia({ colorScheme: 'dark' });
    await home.reload({ waitUntil: 'load' });
    expect(await axeViolations(home), 'dark').toEqual([]);
    await home.close();
  });
});
