import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDateOf } from '../src/domain/calendar.js';
import { normaliseComponent } from '../src/domain/component.js';
import type { FollowedRegistry } from '../src/upstreams/following/follower.js';
import { createFollower } from '../src/upstreams/followers.js';
import { build } from '../src/http/app.js';
import { startFollowing } from '../src/observer/follow-loop.js';
import { runCli } from '../src/cli/run.js';
import { followStatus } from '../src/operations/follow.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { createSources } from '../src/upstreams/sources.js';
import { changesBetween, livePackages } from './support/followed-registries.js';
import { postgresTestStore, sqliteTestStore, testNotary, type TestStore, endToEndBackends } from './support/record.js';

/**
 * Whole registries followed end to end over loopback: the simulator generates npm and Packagist
 * from a seed, the followers run in their loop (leases and all) into the watch list, and the
 * observer reads what falls due. Every listed package is read on the backfill's day; afterwards
 * each change a feed reports is read on the day it happened; the reads are counted by reason and
 * `tended follow status` and /healthz say where each follower stands.
 */
const FOLLOWED: FollowedRegistry[] = ['npm', 'composer'];
/** A few hundred packages each. */
const SCALES = { npm: 0.0001, composer: 0.001 };
const START = '2026-03-02T08:00:00.000Z';
/** The moments of each day the followers and the observer run: changes after the last wait for the next day. */
const PASSES = ['08:00:00.000', '16:00:00.000', '23:55:00.000'];
const DAYS = 3;

describe.each(
  endToEndBackends([
    ['sqlite', sqliteTestStore],
    ['postgres', postgresTestStore],
  ] as const),
)('following npm and Packagist on %s', (_backend, open) => {
  const now = { at: new Date(START) };
  const clock = { now: () => now.at };
  let sim: Simulator;
  let t: TestStore;
  let deps: ObserverDeps;
  const keyDir = mkdtempSync(join(tmpdir(), 'tended-follow-'));

  beforeAll(async () => {
    sim = await startSimulator({
      scenario: { components: {} },
      clock: () => now.at,
      registries: { seed: 26, scale: SCALES },
    });
    t = await open();
    const notary = testNotary();
    await t.store.initialiseLog(notary.seal);
    deps = {
      store: t.store,
      notary,
      clock,
      sources: createSources({
        urls: sim.urls,
        githubToken: null,
        userAgent: 'tended-test/0.1.0 (+simulator)',
        timeoutMs: 10_000,
        concurrency: 8,
        cache: { get: (url) => t.store.cacheGet(url), set: (url, entry) => t.store.cacheSet(url, entry) },
      }),
    };
  });
  afterAll(async () => {
    await t.dispose();
    await sim.close();
    rmSync(keyDir, { recursive: true, force: true });
  });

  /** One pass of each follower, in the loop `serve` runs, then the observer over what is due. */
  async function followThenObserve(at: string) {
    now.at = new Date(at);
    const passed = new Set<FollowedRegistry>();
    const errors: unknown[] = [];
    const following = startFollowing(
      { store: t.store, clock },
      FOLLOWED.map((r) =>
        createFollower(r, {
          urls: sim.feeds,
          osvExport: sim.urls.osvExport,
          userAgent: 'tended-test/0.1.0',
          timeoutMs: 10_000,
          clock: clock.now,
        }),
      ),
      {
        everyMs: { npm: 3_600_000, composer: 3_600_000 },
        onPass: (r) => passed.add(r),
        onError: (_r, e) => errors.push(e),
      },
    );
    const deadline = Date.now() + 60_000;
    while (passed.size < FOLLOWED.length && errors.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await following.stop();
    expect(errors).toEqual([]);
    expect([...passed].sort()).toEqual([...FOLLOWED].sort());
    return observeDue(deps, { batch: 100, concurrency: 8, leaseMs: 60_000, sweepDays: 30 });
  }

  const readOn = async (registry: FollowedRegistry, name: string) =>
    (await t.store.observationsOf(normaliseComponent(registry, name))).map((o) => o.observation_date);

  it('reads every listed package on the backfill’s day, each once', async () => {
    const report = await followThenObserve(START);
    const day = utcDateOf(START);
    let listed = 0;
    for (const registry of FOLLOWED) {
      const live = livePackages(sim.registries!.get(registry)!, Date.parse(START));
      const figures = await t.store.followFigures(registry, day);
      expect(figures.listed).toBe(live.size);
      expect(figures.read_once).toBe(live.size);
      expect(figures.reads_today).toEqual({ event: 0, threshold: 0, backfill: live.size, sweep: 0 });
      for (const name of live) expect(await readOn(registry, name)).toEqual([day]);
      listed += live.size;
    }
    expect(listed).toBeGreaterThan(500);
    expect(report.observed).toBe(listed);
    expect(report.failed).toBe(0);
    // Nothing else is due today: the next reads are on change days, age crossings and sweep days.
    expect((await observeDue(deps, { batch: 100, concurrency: 8, leaseMs: 60_000, sweepDays: 30 })).observed).toBe(0);
  }, 180_000);

  it('reads each change its feed reports on the day it happened, and sweeps a thirtieth a day', async () => {
    const firstDay = utcDateOf(START);
    for (let d = 0; d <= DAYS; d++)
      for (const time of PASSES) {
        const at = `${addDays(firstDay, d)}T${time}Z`;
        if (at > START) await followThenObserve(at);
      }
    const end = Date.parse(`${addDays(firstDay, DAYS)}T${PASSES.at(-1)}Z`);
    let changes = 0;
    for (const registry of FOLLOWED) {
      const reg = sim.registries!.get(registry)!;
      for (const e of changesBetween(reg, Date.parse(START), end)) {
        const on = utcDateOf(new Date(e.at));
        // A change after a day's last pass is read the next day (dated then by npm's feed, which gives no time).
        if (new Date(e.at).toISOString().slice(11) > `${PASSES.at(-1)}Z`) continue;
        expect({
          registry,
          name: reg.nameOf(e.package),
          kind: e.kind,
          read: await readOn(registry, reg.nameOf(e.package)),
        }).toMatchObject({ read: expect.arrayContaining([on]) as unknown });
        changes++;
      }
    }
    expect(changes).toBeGreaterThan(DAYS);

    const reads = await t.store.followReads(addDays(firstDay, 1), addDays(firstDay, DAYS));
    const byReason = (reason: string) => reads.filter((r) => r.reason === reason).reduce((a, r) => a + r.reads, 0);
    expect(byReason('event')).toBeGreaterThanOrEqual(changes / 2);
    expect(byReason('backfill')).toBe(0);
    // About a thirtieth of the held packages a day.
    const held = (await Promise.all(FOLLOWED.map((r) => t.store.followFigures(r, firstDay)))).reduce(
      (a, f) => a + f.listed,
      0,
    );
    expect(byReason('sweep')).toBeGreaterThan((DAYS * held) / 30 / 3);
    expect(byReason('sweep')).toBeLessThan((3 * DAYS * held) / 30);
  }, 300_000);

  it('says where each follower stands: tended follow status and /healthz', async () => {
    const statuses = await followStatus(t.store, FOLLOWED, clock);
    for (const s of statuses) {
      expect(s).toMatchObject({ status: 'ok', faults_seen: 0, last_fault: null });
      expect(s.cursor).not.toBeNull();
      expect(s.backfill.read_once).toBe(s.backfill.listed);
    }

    const app = build({ ...deps, logError: () => undefined, followers: () => followStatus(t.store, FOLLOWED, clock) });
    const health = (await (await app.request('/healthz')).json()) as { status: string; followers: unknown[] };
    expect(health.status).toBe('ok');
    expect(health.followers).toEqual(
      statuses.map((s): unknown =>
        expect.objectContaining({ registry: s.registry, status: 'ok', backfill: s.backfill, following_here: false }),
      ),
    );

    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d) => (out += String(d)));
    const code = await runCli(['follow', 'status'], {
      openStore: () => t.reopen(),
      env: {
        DATABASE_URL: t.url.startsWith('sqlite:') ? t.url : 'postgres://unused',
        TENDED_FOLLOW: FOLLOWED.join(','),
        GITHUB_TOKEN: 'ghp_test',
        TENDED_SIGNING_KEY: join(keyDir, 'key.pem'),
      },
      stdout,
      stderr: new PassThrough(),
    });
    expect(code).toBe(0);
    for (const s of statuses) {
      expect(out).toContain(`${s.registry}: `);
      expect(out).toContain(`cursor           ${s.cursor!.slice(0, 40)}`);
      expect(out).toContain(
        `backfill         ${s.backfill.listed} of ${s.backfill.listed} held packages read at least once (100.0 %)`,
      );
    }
    expect(out).toMatch(/reads today {6}event \d+, threshold \d+, backfill \d+, sweep \d+/);
    expect(out).toMatch(/faults {11}0\n/);
  });
});
