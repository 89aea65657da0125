// Issue 36: each page says what the record holds, retried as the issue wrote each item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../src/http/app.js';
import { normaliseComponent } from '../src/domain/component.js';
import { fillPageRecord, LAST_DAY } from './support/pages-record.js';
import { sqliteTestStore, type TestStore } from './support/record.js';

let t: TestStore;
let filled: Awaited<ReturnType<typeof fillPageRecord>>;
let app: ReturnType<typeof build>;
const html = { accept: 'text/html' };
const get = async (path: string) => {
  const res = await app.request(path, { headers: html });
  return { status: res.status, text: await res.text() };
};
const text = (page: string) =>
  page
    .replace(/<script[^<]*<\/script>/g, ' ')
    .replace(/<[^<>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  t = await sqliteTestStore();
  filled = await fillPageRecord(t.store);
  // A repository read as the demo's acme/vanishing is: commits, then only pushed_at, then a 404.
  const vanishing = normaliseComponent('github', 'acme/gone-repo');
  const reading = (day: string, state: 'alive' | 'abandoned' | 'deleted', evidence: Record<string, unknown>) => ({
    component: vanishing,
    observed_at: `${day}T12:00:00Z`,
    observation_date: day,
    state,
    source: 'https://api.github.com/repos/acme/gone-repo',
    evidence: evidence as never,
    method: 'github repository metadata',
    corrects: null,
  });
  await t.store.appendObservations(
    [
      reading('2025-06-01', 'alive', { last_commit: '2024-11-02T08:00:00Z', last_commit_sha: 'b54455824a476b22' }),
      reading('2026-01-15', 'abandoned', { pushed_at: '2024-11-02T08:00:00Z', http_status: 304 }),
      reading(LAST_DAY, 'deleted', { http_status: 404 }),
    ],
    filled.notary.seal,
  );
  app = build({ ...filled, sources: filled.harness.sources, logError: (e) => console.error(e) });
}, 60_000);
afterAll(async () => {
  await filled.harness.close();
  await t.dispose();
});

describe('issue 36: pages say what the record holds', () => {
  it('item 4: the home page states the log head it was computed from, never earlier than a change it lists', async () => {
    const home = text((await get('/')).text);
    const head = (await (await app.request('/api/chain/head')).json()) as { timestamp: string; tree_size: number };
    expect(home).toContain(`as the log stood at its head of ${head.timestamp} (${head.tree_size} leaves)`);
    expect(home).not.toMatch(/record stood at \d{4}-\d{2}-\d{2}T\d{2}:00:00Z/);
    for (const m of home.matchAll(/observed (\d{4}-\d{2}-\d{2})/g))
      expect(m[1]! <= head.timestamp.slice(0, 10)).toBe(true);
  });

  it('item 5: a repository page reads its dates as its rows do, and words each fact for a repository', async () => {
    const page = await get('/github/acme/gone-repo');
    expect(page.status).toBe(200);
    const said = text(page.text);
    // The fact above the rows: the latest dated reading, not "not on record".
    expect(said).toContain('Last commit or push last push (2024-11-02), as read 2026-01-15; the latest reading');
    expect(said).not.toContain('not on record Archived');
    // The abandoned row reads its pushed_at, as the alive row reads last_commit.
    expect(said).toContain('2026-01-15 abandoned 2024-11-02');
    expect(said).toContain('2025-06-01 alive 2024-11-02');
    expect(said).toContain('When was acme/gone-repo last committed to?');
    expect(said).not.toContain('last published');
    expect(said).not.toContain('installs of it would fail');
    expect(said).toContain(`GitHub answered on ${LAST_DAY} that acme/gone-repo is not there`);
    // Packages keep their own wording.
    expect(text((await get('/npm/left-padded')).text)).toContain('When was left-padded last published?');
  });

  it('item 6: /verify?index=9999 says the leaf is not in the log, with a 404, and checks no other leaf', async () => {
    const head = (await (await app.request('/api/chain/head')).json()) as { tree_size: number };
    const far = await get('/verify?index=9999');
    expect(far.status).toBe(404);
    expect(text(far.text)).toContain(
      `Leaf 9999 is not in the log: it holds ${head.tree_size} leaves, numbered 0 to ${head.tree_size - 1}.`,
    );
    const junk = await get('/verify?index=abc');
    expect(junk.status).toBe(422);
    expect(text(junk.text)).toContain('“abc” is not a leaf number');
    const inRange = await get('/verify?index=3');
    expect(inRange.status).toBe(200);
    expect(inRange.text).not.toContain('leaf-problem');
  });

  it('item 12: the as_of box is written and read as YYYY-MM-DD, and another spelling is refused with a sentence', async () => {
    const page = (await get('/npm/left-padded')).text;
    expect(page).not.toContain('type="date"');
    expect(page).toMatch(/<input id="as_of" type="text" name="as_of"[^>]*placeholder="YYYY-MM-DD"/);
    expect(text(page)).toContain('YYYY-MM-DD, on or before');
    const us = await get('/npm/left-padded?as_of=08/01/2025');
    expect(us.status).toBe(422);
    expect(text(us.text)).toMatch(/YYYY-MM-DD/);
    expect((await get('/npm/left-padded?as_of=2025-08-01')).status).toBe(200);
  });
});
