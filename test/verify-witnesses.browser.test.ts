/**
 * /verify with a witness policy, in Chromium: the reader names witness keys (?witness=, or the
 * form) and a threshold; the page checks each cosignature with WebCrypto, and each cosigned tree
 * against the checkpoint it verified (a consistency proof for an older one). Cosignatures come
 * from the independent test witness (test/support/tlog-witness.mjs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCosignerKey } from '../src/notary/cosignature.js';
import { witnessLatestCheckpoint } from '../src/operations/witness-checkpoints.js';
import { chromiumToDrive } from './support/chromium.js';
import { githubObservation, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { serveLog, startWitness, type TestWitness } from './support/test-witness.js';

let t: TestStore;
let dir: string;
let context: BrowserContext;
let base: string;
let close: () => Promise<void>;
const witnesses: TestWitness[] = [];
let absent: TestWitness;

beforeAll(async () => {
  const browser = await chromiumToDrive();
  dir = mkdtempSync(join(tmpdir(), 'tended-verify-witness-'));
  t = await sqliteTestStore();
  const deps = recordDeps(t.store);
  await t.store.initialiseLog(deps.notary.seal);
  const logs = [{ origin: deps.notary.origin, vkey: deps.notary.vkey }];
  for (const name of ['w1.example/witness', 'w2.example/witness']) witnesses.push(await startWitness(name, logs, dir));
  absent = await startWitness('w3.example/witness', logs, dir);
  const append = (from: number, n: number) =>
    t.store.appendObservations(
      Array.from({ length: n }, (_, i) => githubObservation(`acme/r${from + i}`, '2025-03-01', 'alive')),
      deps.notary.seal,
    );
  await append(0, 9);
  const options = { timeoutMs: 5_000, userAgent: 'tended-test' };
  for (const w of witnesses)
    await witnessLatestCheckpoint(deps, { cosigner: parseCosignerKey(w.vkey), url: w.url }, options);
  // w2 cosigns again at 13; w1 stays at 9: the page proves 9 consistent with 13 itself.
  await append(9, 4);
  await witnessLatestCheckpoint(
    deps,
    { cosigner: parseCosignerKey(witnesses[1]!.vkey), url: witnesses[1]!.url },
    options,
  );
  const served = await serveLog(deps);
  base = served.url;
  close = () => served.close();
  context = await chromium.launchPersistentContext(mkdtempSync(join(dir, 'profile-')), {
    executablePath: browser.executablePath,
    headless: true,
    args: [...new Set(browser.args)],
  });
}, 90_000);

afterAll(async () => {
  await context?.close();
  await close?.();
  for (const w of [...witnesses, absent]) await w?.stop();
  await t?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function verifyWith(query: string) {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const response = await page.goto(`${base}/verify${query}`);
  const result = page.locator('#verify-result');
  await expect.poll(() => result.getAttribute('class'), { timeout: 15_000 }).toMatch(/result (ok|fail)/);
  // The witness step runs after the leaf's: wait until it has said something.
  await expect
    .poll(async () => (await page.locator('#verify-steps li').allInnerTexts()).join('\n'), { timeout: 15_000 })
    .not.toMatch(/checking…/);
  const out = {
    status: response!.status(),
    result: await result.innerText(),
    steps: await page.locator('#verify-steps li').allInnerTexts(),
    errors,
  };
  await page.close();
  return out;
}

const q = (...keys: string[]) => keys.map((k) => `witness=${encodeURIComponent(k)}`).join('&');

describe('/verify with a witness policy', () => {
  it('2 of 2: w2 cosigned the verified checkpoint, w1 an older one proven consistent on the page', async () => {
    const { status, result, steps, errors } = await verifyWith(`?${q(witnesses[0]!.vkey, witnesses[1]!.vkey)}`);
    expect(errors).toEqual([]);
    expect(status).toBe(200);
    expect(result).toMatch(
      /^Leaf 12 verified: .* Witness policy met: 2 of 2 named witnesses cosigned \(2 required\)\.$/,
    );
    expect(steps.at(-1)).toMatch(
      /w1\.example\/witness cosigned size 9 at .*; w2\.example\/witness cosigned size 13 at /,
    );
  });

  it('3 of 3 with a witness that never cosigned: not verified, and the page says who is missing', async () => {
    const { result } = await verifyWith(`?${q(witnesses[0]!.vkey, witnesses[1]!.vkey, absent.vkey)}`);
    expect(result).toMatch(/^Not verified: the witness policy is not met: 2 of 3 cosigned, 3 required\./);
    expect(result).toContain('w3.example/witness: no cosigned checkpoint of this log');
  });

  it('the form’s one-per-line keys and a threshold of 2 of 3 are met', async () => {
    const lines = encodeURIComponent([witnesses[0]!.vkey, witnesses[1]!.vkey, absent.vkey].join('\r\n'));
    const { result } = await verifyWith(`?witness=${lines}&threshold=2`);
    expect(result).toMatch(/Witness policy met: 2 of 3 named witnesses cosigned \(2 required\)\.$/);
  });

  it('a witness that cosigned a larger tree than the page read (the log grew meanwhile) is proven consistent the other way', async () => {
    // The page is handed the checkpoint of 9 leaves, as if it had read the log before the last append.
    const records = (await (await fetch(`${base}/api/chain/witnesses`)).json()) as {
      witnesses: { witness: string; cosigned: { note: string } }[];
    };
    const nine = records.witnesses.find((w) => w.witness === witnesses[0]!.name)!.cosigned.note;
    const logOnly = nine
      .split('\n')
      .filter((l) => !l.startsWith('\u2014 w'))
      .join('\n');
    const page = await context.newPage();
    await page.route(`${base}/api/chain/checkpoint`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: logOnly }),
    );
    await page.goto(`${base}/verify?${q(witnesses[0]!.vkey, witnesses[1]!.vkey)}`);
    const result = page.locator('#verify-result');
    await expect.poll(() => result.innerText(), { timeout: 15_000 }).toMatch(/Witness policy met|Not verified/);
    expect(await result.innerText()).toMatch(
      /^Leaf 8 verified: it is in the log of 9 leaves .* Witness policy met: 2 of 2/,
    );
    expect((await page.locator('#verify-steps li').allInnerTexts()).at(-1)).toMatch(
      /w2\.example\/witness cosigned size 13/,
    );
    await page.close();
  });

  it('a policy that is not one is a 422 page with a sentence, before any check', async () => {
    const bad = await fetch(`${base}/verify?witness=nonsense&threshold=1`);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('The witness policy is not one: malformed witness key');
    const tooMany = await fetch(`${base}/verify?${q(witnesses[0]!.vkey)}&threshold=2`);
    expect(tooMany.status).toBe(422);
    expect(await tooMany.text()).toContain('between 1 and the 1 witnesses named');
  });
});
