import { afterEach, describe, expect, it } from 'vitest';
import { ServiceMetrics, watchFollowers } from '../src/cli/metrics.js';
import { followPass } from '../src/upstreams/following/follow-pass.js';
import { startFollowing } from '../src/observer/follow-loop.js';
import { followStatus } from '../src/operations/follow.js';
import type { FeedFaults } from '../src/simulator/registries/faults.js';
import { startFollowed, type Followed } from './support/followed-registries.js';
import { sqliteTestStore, type TestStore } from './support/record.js';
import { waitFor } from './support/tended-processes.js';

/**
 * Issue 34 items 7 and 8: a hostile npm feed through the simulator, followed by the follow loop
 * that `serve` and `tended observe` run, on a real SQLite store. A `_changes` page holding more
 * rows than `limit` asked for, and a page whose `last_seq` does not move past `since`, are faults
 * the follower reports (its status `failing`, its last fault, the faults counted) and backs off
 * from: a pass ends on the first such answer, the cursor stays where it was, and the passes that
 * follow are spaced further and further apart. Before, the stuck cursor was asked for again and
 * again within one pass and the oversized page was taken whole, status `ok`.
 */
const START = Date.parse('2026-01-05T12:00:00Z');
const DAY = 86_400_000;
/** How long the loop runs against the hostile feed. */
const WATCH_MS = 5_000;

let f: Followed;
let t: TestStore;
afterEach(async () => {
  await f.close();
  await t.dispose();
});

async function followHostile(faults: FeedFaults, npm: { window?: number; pageSize?: number } = {}) {
  f = await startFollowed({ at: new Date(START).toISOString(), scales: { npm: 0.001 } });
  t = await sqliteTestStore();
  const clock = { now: () => f.now.at };
  // The backfill against an honest feed, then a day of changes and the feed turns hostile.
  await followPass(
    f.follower('npm', { npm }),
    t.store,
    (b) => t.store.holdFollowed(b.listed, b.hints, START_ISO).then(),
    () => f.now.at,
  );
  const held = (await t.store.watchList()).length;
  const committed = (await t.store.followCursor('npm'))!.cursor;
  f.now.at = new Date(START + DAY);
  f.sim.setFeedFaults(faults);
  const before = f.sim.requests.length;
  const passes: number[] = [];
  const following = startFollowing({ store: t.store, clock }, [f.follower('npm', { npm })], {
    everyMs: { npm: 250 },
    backoffMaxMs: 2_000,
    onPass: (_r, s) => passes.push(s.batches),
  });
  const t0 = performance.now();
  // This process holds the simulator too: the peak says what the page cost both, read or refused.
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  await new Promise((r) => setTimeout(r, WATCH_MS));
  // A million rows take the simulator a while to write: at least one pass has ended before anything is judged.
  await waitFor('a pass against the hostile feed', 60_000, () => passes.length > 0);
  clearInterval(sampler);
  const local = following.local('npm');
  const [status] = await followStatus(t.store, ['npm'], clock, () => local);
  await following.stop();
  const pages = f.sim.requests.slice(before).filter((q) => q.path.startsWith('/replicate/registry/_changes'));
  const figures = {
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    changes_pages: pages.length,
    identical_pages: Math.max(0, ...countBy(pages.map((q) => q.path)).values()),
    passes: passes.length,
    status: status!.status,
    last_fault: status!.last_fault?.kind ?? null,
    faults_seen: status!.faults_seen,
    peak_rss_gain_mb: Math.round((peak - rss0) / 1048576),
  };
  console.log(`hostile npm feed ${JSON.stringify(faults.npm)}: ${JSON.stringify(figures)}`);
  // What /metrics shows for it: the failing gauge and the faults counted (the gauges serve and observe register).
  const metrics = new ServiceMetrics();
  watchFollowers(metrics, () => Promise.resolve([status!]));
  const scraped = await metrics.registry.metrics();
  return { figures, status: status!, committed, held, cursor: (await t.store.followCursor('npm'))!.cursor, scraped };
}
const START_ISO = new Date(START).toISOString();

function countBy(keys: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

describe('a feed that cannot bend the follower', () => {
  it('a cursor that never advances is a fault, reported and backed off from, never an endless pass', async () => {
    // Pages of 20 (a day holds ~80 changes here), so a page is full and the feed says there is more.
    const r = await followHostile({ npm: { stuckCursor: true } }, { window: 10, pageSize: 20 });
    expect(r.status).toMatchObject({ status: 'failing', last_fault: { kind: 'stuck_cursor' } });
    expect(r.status.local?.last_error).toMatch(/^stuck_cursor: /);
    expect(r.scraped).toMatch(/^tended_follow_failing\{registry="npm"\} 1$/m);
    expect(r.scraped).toMatch(/^tended_follow_faults_total\{registry="npm"\} [1-9]\d*$/m);
    // Each pass asks the trailing window and one page more, then stops; passes 0.5, 1, 2, 2 s apart.
    expect(r.figures.changes_pages).toBeLessThanOrEqual(12);
    expect(r.figures.identical_pages).toBeLessThanOrEqual(6);
    expect(r.figures.passes).toBeLessThanOrEqual(6);
    const seqOf = (cursor: string) => (JSON.parse(cursor) as { follow: { seq: number } }).follow.seq;
    expect(seqOf(r.cursor)).toBe(seqOf(r.committed));
  }, 30_000);

  it.each([
    ['more rows than asked, under the body cap', 20_000],
    ['a million rows for limit=10000, past the body cap', 1_000_000],
  ])(
    'a page with %s is refused unread, reported and backed off from',
    async (_what, rows) => {
      const r = await followHostile({ npm: { oversizedPage: { rows } } });
      expect(r.status).toMatchObject({ status: 'failing', last_fault: { kind: 'oversized_page' } });
      expect(r.scraped).toMatch(/^tended_follow_failing\{registry="npm"\} 1$/m);
      expect(r.figures.changes_pages).toBeLessThanOrEqual(6);
      // Nothing of the page was taken: no made-up name is held, and the cursor did not move.
      expect((await t.store.watchList()).length).toBe(r.held);
      expect(r.cursor).toBe(r.committed);
    },
    60_000,
  );
});
