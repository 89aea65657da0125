import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/**
 * The Chromium to drive: TENDED_TEST_CHROMIUM when set, else Debian's chromium when installed,
 * else the headless Chromium that ships inside the @sparticuz/chromium npm package (unpacked to
 * /tmp on first use), so `npm ci && npm test` needs nothing installed by hand. Never skipped.
 */
export async function chromiumToDrive(): Promise<{ executablePath: string; args: string[] }> {
  const named = process.env.TENDED_TEST_CHROMIUM ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : null);
  if (named !== null) {
    if (!existsSync(named)) throw new Error(`TENDED_TEST_CHROMIUM names ${named}, which does not exist`);
    return { executablePath: named, args: DEBIAN_ARGS };
  }
  const shipped = (await import('@sparticuz/chromium')).default;
  return { executablePath: await shipped.executablePath(), args: [...shipped.args, ...DEBIAN_ARGS] };
}
const DEBIAN_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/** What the test reads of axe-core, as the page's global `axe` after its script is evaluated. */
interface AxeGlobal {
  axe: {
    run(
      context: unknown,
      options: { resultTypes: string[] },
    ): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
  };
}

export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol rather than added as a <script>: the pages' CSP
  // (script-src 'self') rightly refuses an inline script tag, and the CSP stays on under test.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as AxeGlobal).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
  return violations;
}
