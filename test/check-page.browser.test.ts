import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, chromiumToDrive } from './support/chromium.js';
import { checkPageApp, RIPGREP_LOCK } from './support/check-record.js';

/** Issue 37's screenshots, desktop and phone, beside the other pages' (CI prints their paths). */
const SHOTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

let checked: Awaited<ReturnType<typeof checkPageApp>>;
let server: ServerType;
let base: string;
let browser: Browser;

beforeAll(async () => {
  const driven = await chromiumToDrive();
  checked = await checkPageApp();
  base = await new Promise<string>((resolve) => {
    server = serve({ fetch: checked.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
  browser = await chromium.launch({
    executablePath: driven.executablePath,
    headless: true,
    args: [...new Set(driven.args)],
  });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await checked?.close();
});

/** One context with script and one without, kept for the file: the browser ends with its last context. */
const contexts = new Map<boolean, BrowserContext>();
async function pageAt(width: number, javaScriptEnabled: boolean): Promise<Page> {
  let context = contexts.get(javaScriptEnabled);
  if (!context) {
    context = await browser.newContext({ javaScriptEnabled });
    contexts.set(javaScriptEnabled, context);
  }
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  return page;
}

/** Nothing wider than the window: the page never scrolls sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('/check in Chromium', () => {
  it.each([
    [1280, false],
    [1280, true],
    [390, false],
    [390, true],
  ] as const)('at %i px (JavaScript %s) a pasted lockfile is checked by the form post', async (width, js) => {
    const page = await pageAt(width, js);
    const home = await page.goto(`${base}/`);
    expect(home!.status()).toBe(200);
    await page.getByRole('link', { name: 'check a manifest, lockfile or SBOM' }).click();
    await page.waitForURL(`${base}/check`);
    expect(await page.locator('h1').innerText()).toBe('Check a file');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByLabel('Paste the file’s text').fill(RIPGREP_LOCK);
    await Promise.all([page.waitForURL(`${base}/check`), page.getByRole('button', { name: 'Check' }).click()]);
    await page.waitForSelector('table.check-results');
    expect(await page.locator('h1').innerText()).toBe('Results');
    const rows = await page.locator('table.check-results tbody tr').count();
    expect(rows).toBeGreaterThan(20);
    const memchr = page.locator('table.check-results tbody tr', { hasText: 'memchr' }).first();
    await expect.poll(() => memchr.locator('.state').innerText()).toBe('alive');
    expect(await memchr.getByRole('link', { name: 'https://crates.io/api/v1/crates/memchr' }).count()).toBe(1);
    expect(await fitsWidth(page)).toBe(true);
    if (js) {
      // axe (evaluated through the DevTools protocol) needs script; the page itself runs none.
      expect(await axeViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `check-results-${width}.png`), fullPage: false });
      await page.goto(`${base}/check`);
      await page.screenshot({ path: join(SHOTS, `check-form-${width}.png`), fullPage: true });
    }
    await page.close();
  });

  it('downloads the SARIF from the results page without anything stored between the two posts', async () => {
    const page = await pageAt(1280, false);
    await page.goto(`${base}/check`);
    await page.getByLabel('Paste the file’s text').fill(RIPGREP_LOCK);
    await Promise.all([page.waitForURL(`${base}/check`), page.getByRole('button', { name: 'Check' }).click()]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download SARIF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('tended.sarif');
    const path = await download.path();
    const sarif = JSON.parse(readFileSync(path, 'utf8')) as {
      runs: { results: { properties: { component: string; state: string } }[] }[];
    };
    expect(sarif.runs[0]!.results.find((r) => r.properties.component === 'cargo:memchr')?.properties.state).toBe(
      'alive',
    );
    await page.close();
  });

  it('says on the page, without script, that a too-large file is refused', async () => {
    const page = await pageAt(390, false);
    await page.goto(`${base}/check`);
    await page.getByLabel('or choose the file (up to 4 MB)').setInputFiles({
      name: 'requirements.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(4 * 1024 * 1024 + 1, 0x61),
    });
    const [response] = await Promise.all([
      page.waitForResponse(`${base}/check`),
      page.getByRole('button', { name: 'Check' }).click(),
    ]);
    expect(response.status()).toBe(413);
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('larger than 4 MB');
    expect(await fitsWidth(page)).toBe(true);
    await page.close();
  });
});
