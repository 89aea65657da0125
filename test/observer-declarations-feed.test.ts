import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../src/domain/calendar.js';
import type { ComponentRef } from '../src/domain/component.js';
import { nextSweepDay } from '../src/domain/follow-schedule.js';
import type { CratesPosition } from '../src/upstreams/cargo/list.js';
import { followConfiguredOnce } from '../src/cli/follow-commands.js';
import { loadConfig } from '../src/config/config.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { createSources } from '../src/upstreams/sources.js';
import { changesBetween } from './support/followed-registries.js';
import { endToEndBackends, postgresTestStore, sqliteTestStore, testNotary, type TestStore } from './support/record.js';
import { rustsecOsvRecord } from './support/rustsec-osv.js';

/**
 * RustSec's "unmaintained" advisories read when they are published, not at the crate's next usual
 * read: crates.io's follower also follows OSV's export (modified_id.csv and each record), and
 * hints every crate a new or changed advisory names, so the crate is read that day. The
 * advisories are real ones vendored from RustSec's advisory-db (test/fixtures/rustsec/SOURCE.md),
 * served by the simulator from the day their phase starts; crates.io itself is generated from a
 * seed. The export failing never stops crates.io's feed, and what it held back is read once it
 * answers again.
 */
const BEFORE = '2026-03-14';
/** RUSTSEC-2020-0036 (failure) appears in the export this day. */
const PUBLISHED = addDays(BEFORE, 1);
/** The export answers 503 this day, when RUSTSEC-2020-0016 (net2) appears. */
const FAILING = addDays(BEFORE, 2);
const HEALED = addDays(BEFORE, 3);
const SWEEP_DAYS = 30;
const recent = { '1.0.0': '2025-06-01T00:00:00Z', '1.1.0': '2026-02-01T00:00:00Z' };

const scenario = parseScenario({
  components: {
    'cargo:failure': [
      { from: '2019-01-01', versions: recent },
      { from: PUBLISHED, advisories: [rustsecOsvRecord('RUSTSEC-2020-0036')] },
    ],
    'cargo:net2': [
      { from: '2019-01-01', versions: recent },
      { from: FAILING, advisories: [rustsecOsvRecord('RUSTSEC-2020-0016')] },
    ],
  },
  osv_export: [{ from: FAILING, fail: 'server_error', status: 503 }, { from: HEALED }],
});

const crate = (id: string): ComponentRef => ({ kind: 'cargo', id });
const at8 = (day: string) => `${day}T08:00:00.000Z`;

describe.each(
  endToEndBackends([
    ['sqlite', sqliteTestStore],
    ['postgres', postgresTestStore],
  ] as const),
)('RustSec advisories followed through OSV’s export, on %s', (_backend, open) => {
  const now = { at: new Date(at8(BEFORE)) };
  const clock = { now: () => now.at };
  let sim: Simulator;
  let t: TestStore;
  let deps: ObserverDeps;

  beforeAll(async () => {
    sim = await startSimulator({
      scenario,
      clock: clock.now,
      registries: { seed: 37, scale: { cargo: 0.002 }, registries: ['cargo'] },
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
        timeoutMs: 5_000,
        concurrency: 8,
        cache: { get: (url) => t.store.cacheGet(url), set: (url, entry) => t.store.cacheSet(url, entry) },
      }),
    };
  });
  afterAll(async () => {
    await t.dispose();
    await sim.close();
  });

  /** crates.io's follower's pass as `observe --once` runs it from its configuration, then the reads it made due. */
  async function followThenObserve(day: string) {
    now.at = new Date(at8(day));
    const config = loadConfig({
      ...upstreamEnv(sim.urls),
      TENDED_FOLLOW: 'cargo',
      TENDED_FEED_CARGO_URL: sim.feeds.cargo,
      GITHUB_TOKEN: 'ghp_test',
    });
    const [pass] = await followConfiguredOnce(config, { store: t.store, clock });
    expect(pass?.error).toBeNull();
    const report = await observeDue(deps, { batch: 200, concurrency: 8, leaseMs: 60_000, sweepDays: SWEEP_DAYS });
    return { summary: pass!.summary!, report };
  }
  const readings = async (id: string) =>
    (await t.store.observationsOf(crate(id))).map((o) => [o.observation_date, o.state]);
  const position = async () => {
    const cursor = JSON.parse((await t.store.followCursor('cargo'))!.cursor) as { follow?: CratesPosition };
    return cursor.follow!;
  };

  it('lists crates.io and holds both crates, read alive the day before', async () => {
    // As the dump's listing holds every crate it names (the generated dump names only its own).
    await t.store.holdFollowed(
      [crate('failure'), crate('net2')].map((component) => ({ component, marker: null })),
      [],
      at8(BEFORE),
    );
    const { summary } = await followThenObserve(BEFORE);
    expect(summary.listed).toBeGreaterThan(100);
    expect(summary.faults).toEqual([]);
    expect(await readings('failure')).toEqual([[BEFORE, 'alive']]);
    expect(await readings('net2')).toEqual([[BEFORE, 'alive']]);
    // Neither crate's sweep day comes before the test ends: only a hint can read them sooner.
    for (const id of ['failure', 'net2']) expect(nextSweepDay(crate(id), BEFORE, SWEEP_DAYS) > HEALED).toBe(true);
  }, 120_000);

  it('reads a crate the day its unmaintained advisory is published: archived, the advisory its evidence', async () => {
    const { summary } = await followThenObserve(PUBLISHED);
    expect(summary.faults).toEqual([]);
    expect(summary.hints).toBeGreaterThanOrEqual(1);
    const failure = await t.store.observationsOf(crate('failure'));
    expect(failure.map((o) => [o.observation_date, o.state])).toEqual([
      [BEFORE, 'alive'],
      [PUBLISHED, 'archived'],
    ]);
    expect(failure[1]!.source).toMatch(/\/osv\/v1\/vulns\/RUSTSEC-2020-0036$/);
    expect(failure[1]!.evidence).toMatchObject({
      archived_because: 'a RustSec advisory declares the crate unmaintained',
      declaration: { advisory: 'RUSTSEC-2020-0036', url: 'https://rustsec.org/advisories/RUSTSEC-2020-0036.html' },
    });
    // Read as an event (the hint), not as the sweep's share of the day.
    const reads = await t.store.followReads(PUBLISHED, PUBLISHED);
    expect(reads.find((r) => r.registry === 'cargo' && r.reason === 'event')?.reads).toBeGreaterThanOrEqual(1);
    expect(await readings('net2')).toEqual([[BEFORE, 'alive']]);
    const advisories = (await position()).advisories;
    expect(advisories?.seen).toContain('RUSTSEC-2020-0036@2026-03-15T00:00:00.000Z');
  }, 120_000);

  it('keeps following crates.io while the export fails, then reads what it held back', async () => {
    const before = await position();
    const reg = sim.registries!.get('cargo')!;
    const published = changesBetween(reg, Date.parse(at8(PUBLISHED)), Date.parse(at8(FAILING)));
    expect(published.length).toBeGreaterThan(0);
    const { summary } = await followThenObserve(FAILING);
    // crates.io's feed moved on and its publications are hinted; the export's position stayed.
    expect(summary.hints).toBeGreaterThanOrEqual(1);
    const during = await position();
    expect(during.since).toBeGreaterThan(before.since);
    expect(during.advisories).toEqual(before.advisories);
    expect(summary.faults).toContainEqual({
      kind: 'unreachable',
      detail: expect.stringMatching(
        /^OSV's export: .*\/osvexport\/crates\.io\/modified_id\.csv: server_error/,
      ) as unknown,
      at: at8(FAILING),
    });
    expect((await t.store.followCursor('cargo'))?.last_fault?.kind).toBe('unreachable');
    for (const e of published)
      expect((await t.store.observationsOf(crate(reg.nameOf(e.package)))).map((o) => o.observation_date)).toContain(
        FAILING,
      );
    expect(await readings('net2')).toEqual([[BEFORE, 'alive']]);

    const healed = await followThenObserve(HEALED);
    expect(healed.summary.faults).toEqual([]);
    expect(await readings('net2')).toEqual([
      [BEFORE, 'alive'],
      [HEALED, 'archived'],
    ]);
    expect(await readings('failure')).toEqual([
      [BEFORE, 'alive'],
      [PUBLISHED, 'archived'],
    ]);
  }, 120_000);
});
