import { afterEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { FEED_BUDGETS } from '../src/upstreams/registries.js';
import { FOLLOWED_REGISTRIES } from '../src/upstreams/following/follower.js';
import { createFollower } from '../src/upstreams/followers.js';
import { disputeComponent, DisputeRefusedError } from '../src/operations/dispute.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { SIMULATED_HOSTS, simulatedBudgets } from '../src/simulator/budgets.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { UpstreamBudgets } from '../src/upstreams/http/budget.js';
import {
  BUDGETED_UPSTREAMS,
  budgetLimits,
  type BudgetedUpstream,
  type BudgetLimit,
} from '../src/upstreams/http/budget-limits.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { heldBackUntil } from '../src/upstreams/reading.js';
import { withReadPriority, type ReadPriority } from '../src/upstreams/http/read-priority.js';
import type { Reading, Sources } from '../src/upstreams/source.js';
import { createSources } from '../src/upstreams/sources.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Tended's own request budgets, as the upstream sees them: the real readers (and a real follower)
 * over loopback against the simulator, which is given the very same budgets and refuses and
 * records any request past one (src/simulator/traffic.ts). A budget that let a burst through
 * would show as a violation there, whatever the client believed.
 */
let sim: Simulator;
let store: TestStore | null = null;
afterEach(async () => {
  await sim?.close();
  await store?.dispose();
  store = null;
});

const clock = { at: new Date('2026-01-05T12:00:00Z') };

async function start(overrides: Partial<Record<BudgetedUpstream, BudgetLimit>>): Promise<UpstreamBudgets> {
  clock.at = new Date('2026-01-05T12:00:00Z');
  const limits = budgetLimits(false, overrides);
  sim = await startSimulator({
    scenario: { components: {} },
    clock: () => clock.at,
    registries: { seed: 26, scale: { npm: 0.001, pypi: 0.005 } },
    budgets: simulatedBudgets(limits),
  });
  return new UpstreamBudgets(limits, { now: () => clock.at.getTime() });
}

function sources(budgets: UpstreamBudgets | null, concurrency = 16): Sources {
  return createSources({
    urls: sim.urls,
    githubToken: null,
    userAgent: 'tended-test/0.1.0 (+simulator)',
    timeoutMs: 10_000,
    concurrency,
    cache: new MemoryConditionalCache(),
    now: () => clock.at.getTime(),
    ...(budgets ? { budgets } : {}),
  });
}

/** The first `n` packages the seed made in a generated registry. */
function names(registry: 'npm' | 'pypi', n: number, from = 0): string[] {
  const reg = sim.registries!.get(registry)!;
  return Array.from({ length: n }, (_, i) => reg.nameOf(from + i));
}

const today = () => clock.at.toISOString().slice(0, 10);
const read = (s: Sources, kind: 'npm' | 'pypi', name: string) => s[kind].read(normaliseComponent(kind, name), today());
/** The path the npm reader asks for a package at. */
const packumentPath = (name: string) => (name.startsWith('@') ? name.replace('/', '%2f') : encodeURIComponent(name));
const sent = (r: Reading) => heldBackUntil(r) === null && r.signals.unreachable === undefined;

describe('upstream budgets, as the simulator counts them', () => {
  it('counts every budgeted host under the prefix its readers and feeds are served at', async () => {
    await start({});
    const prefixOf = (url: string) => new URL(url).pathname.split('/')[1];
    const { dependentsRegistry: _name, ...readers } = sim.urls;
    const served = new Map<BudgetedUpstream, string>();
    for (const [upstream, url] of Object.entries(readers)) served.set(upstream as BudgetedUpstream, prefixOf(url)!);
    for (const r of FOLLOWED_REGISTRIES) served.set(FEED_BUDGETS[r], prefixOf(sim.feeds[r])!);
    // Every host has one prefix, whether its readers or its feed (or both) use it.
    expect([...served.keys()].sort()).toEqual([...BUDGETED_UPSTREAMS].sort());
    for (const [upstream, prefix] of served) expect(SIMULATED_HOSTS[upstream]).toBe(prefix);
  });

  it('keeps a burst of reads within the budget a second, where the same burst unbudgeted goes over', async () => {
    await start({ npm: { perSecond: 10, perDay: 10_000 } });
    // Unbudgeted, thirty reads at once overrun ten a second: the simulator says so.
    const loose = await Promise.all(names('npm', 30).map((n) => read(sources(null), 'npm', n)));
    expect(loose.filter((r) => r.signals.unreachable === 'rate_limited').length).toBeGreaterThan(0);
    expect(sim.traffic.violations.some((v) => v.upstream === 'npm' && v.window === 'second')).toBe(true);

    await sim.close();
    const fresh = await start({ npm: { perSecond: 10, perDay: 10_000 } });
    const s = sources(fresh);
    const began = performance.now();
    const readings = await Promise.all(names('npm', 30).map((n) => read(s, 'npm', n)));
    const took = performance.now() - began;
    expect(readings.every(sent)).toBe(true);
    expect(sim.traffic.violations).toEqual([]);
    const npm = sim.traffic.summary()['npm']!;
    expect(npm.requests).toBe(30);
    expect(npm.peakPerSecond).toBeLessThanOrEqual(10);
    // Evenly spaced, not in bursts: 30 requests at 10 a second take about three seconds.
    expect(took).toBeGreaterThan(29 * 100);
    expect((await fresh.use()).find((u) => u.upstream === 'npm')).toMatchObject({
      used_today: 30,
      remaining_today: 10_000 - 30,
      per_second: 10,
      shared_in: 'memory',
    });
  });

  it('shares one host’s budget between its readers and its feed', async () => {
    const budgets = await start({ pypi: { perSecond: 4, perDay: 10_000 } });
    const s = sources(budgets);
    const follower = createFollower('pypi', {
      urls: sim.feeds,
      osvExport: sim.urls.osvExport,
      userAgent: 'tended-test/0.1.0 (+simulator)',
      timeoutMs: 10_000,
      clock: () => clock.at,
      budgets,
    });
    const following = (async () => {
      let batches = 0;
      for await (const batch of follower.pass(null)) {
        expect(batch.faults).toEqual([]);
        batches++;
      }
      return batches;
    })();
    const readings = await Promise.all(names('pypi', 10).map((n) => read(s, 'pypi', n)));
    expect(await following).toBeGreaterThan(0);
    expect(readings.every(sent)).toBe(true);
    const pypi = sim.traffic.summary()['pypi']!;
    // The listing and the journal went to pypi.org too, and counted against the same four a second.
    expect(pypi.requests).toBeGreaterThan(10);
    expect(pypi.peakPerSecond).toBeLessThanOrEqual(4);
    expect(sim.traffic.violations).toEqual([]);
  });

  it('sends what is queued in priority order: events and thresholds, then backfill, then sweeps', async () => {
    const budgets = await start({ npm: { perSecond: 4, perDay: 10_000 } });
    const s = sources(budgets);
    const pkgs = names('npm', 9);
    // One read first, so the burst below finds the second's turn taken and queues whole.
    expect(sent(await read(s, 'npm', pkgs[0]!))).toBe(true);
    const order: ReadPriority[] = ['sweep', 'sweep', 'backfill', 'sweep', 'event', 'backfill', 'threshold', 'event'];
    const readings = await Promise.all(
      order.map((priority, i) => withReadPriority(priority, () => read(s, 'npm', pkgs[i + 1]!))),
    );
    expect(readings.every(sent)).toBe(true);
    // The order the simulator received them in, by the package each was for.
    const received = sim.requests
      .filter((r) => r.path.startsWith('/npm/'))
      .slice(1)
      .map((r) => order[pkgs.findIndex((p) => r.path === `/npm/${packumentPath(p)}`) - 1]);
    expect(received).toEqual(['event', 'threshold', 'event', 'backfill', 'backfill', 'sweep', 'sweep', 'sweep']);
    expect(sim.traffic.violations).toEqual([]);
  });

  it('stops sweeps, then backfill, as the day runs out; a refused read is deferred to the next UTC day', async () => {
    // Ten a day: sweeps stop at 6, backfill at 8, events and what someone asked for take the rest.
    const budgets = await start({ npm: { perSecond: 20, perDay: 10 } });
    const s = sources(budgets);
    const pkgs = names('npm', 14);
    const readAs = (priority: ReadPriority, list: string[]) =>
      withReadPriority(priority, () => Promise.all(list.map((p) => read(s, 'npm', p))));
    const sweeps = await readAs('sweep', pkgs.slice(0, 8));
    expect(sweeps.filter(sent)).toHaveLength(6);
    const backfill = await readAs('backfill', pkgs.slice(8, 11));
    expect(backfill.filter(sent)).toHaveLength(2);
    const events = await readAs('event', pkgs.slice(11, 14));
    expect(events.filter(sent)).toHaveLength(2);
    // Every refusal: not sent, held until the next UTC midnight, never an answer of npm's.
    const refused = [...sweeps, ...backfill, ...events].filter((r) => !sent(r));
    expect(refused).toHaveLength(4);
    for (const r of refused) {
      expect(heldBackUntil(r)).toBe('2026-01-06T00:00:00Z');
      expect(r.evidence['rate_limited']).toMatch(/^not sent: Tended's own npm budget for 2026-01-05 is spent/);
      expect(r.evidence['http_status']).toBeUndefined();
    }
    expect(sim.traffic.summary()['npm']!.perDay).toEqual({ '2026-01-05': 10 });
    expect(sim.traffic.violations).toEqual([]);
    const use = (await budgets.use()).find((u) => u.upstream === 'npm')!;
    expect(use).toMatchObject({ day: '2026-01-05', used_today: 10, remaining_today: 0 });
    expect(use.refused).toMatchObject({ sweep: 2, backfill: 1, event: 1 });

    // The next UTC day the budget is whole again: the same clients read on.
    clock.at = new Date('2026-01-06T00:00:05Z');
    const tomorrow = await readAs('sweep', pkgs.slice(6, 8));
    expect(tomorrow.every(sent)).toBe(true);
    expect(sim.traffic.summary()['npm']!.perDay).toEqual({ '2026-01-05': 10, '2026-01-06': 2 });
    expect((await budgets.use()).find((u) => u.upstream === 'npm')).toMatchObject({
      day: '2026-01-06',
      used_today: 2,
    });
  });

  it('records no observation for a read the day’s budget refused; the next day’s pass reads again', async () => {
    const budgets = await start({ npm: { perSecond: 20, perDay: 6 } });
    store = await sqliteTestStore();
    const base = recordDeps(store.store, '2026-01-05T12:00:00Z');
    const deps: ObserverDeps = { ...base, clock: { now: () => clock.at }, sources: sources(budgets, 4) };
    await store.store.initialiseLog(deps.notary.seal);
    const refs = names('npm', 8).map((n) => normaliseComponent('npm', n));
    await store.store.watchAdd(refs, '2026-01-05T00:00:00.000Z');
    const pass = { batch: 20, concurrency: 4, leaseMs: 60_000 };

    const first = await observeDue(deps, pass);
    expect(first).toMatchObject({ observed: 6, deferred: 2, failed: 0 });
    const held = await store.store.observationsOfMany(refs);
    const read = [...held.values()].filter((o) => o.length > 0);
    expect(read).toHaveLength(6);
    // Nothing the budget refused became a leaf, not_observed or otherwise.
    expect(read.flat().every((o) => o.state !== 'not_observed' && o.observation_date === '2026-01-05')).toBe(true);

    // A dispute's re-read, refused too, records nothing and says until when.
    const leaves = (await store.store.latestHead())!.tree_size;
    const disputed = refs.find((r) => (held.get(`npm:${r.id}`) ?? []).length > 0)!;
    const dispute = disputeComponent(deps, 'npm', disputed.id);
    await expect(dispute).rejects.toThrow(DisputeRefusedError);
    await expect(dispute).rejects.toThrow(/nothing was recorded\. Try again after 2026-01-06T00:00:00Z/);
    expect((await store.store.latestHead())!.tree_size).toBe(leaves);

    // Later the same day nothing is due: the refused reads wait for the next UTC day, not for a retry now.
    clock.at = new Date('2026-01-05T18:00:00Z');
    expect(await observeDue(deps, pass)).toMatchObject({ observed: 0, deferred: 0 });

    clock.at = new Date('2026-01-06T00:00:10Z');
    const second = await observeDue(deps, pass);
    expect(second).toMatchObject({ observed: 6, deferred: 2 });
    expect(sim.traffic.summary()['npm']!.perDay).toEqual({ '2026-01-05': 6, '2026-01-06': 6 });
    expect(sim.traffic.violations).toEqual([]);
    const after = await store.store.observationsOfMany(refs);
    expect([...after.values()].flat().filter((o) => o.observation_date === '2026-01-06')).toHaveLength(6);
    expect([...after.values()].flat().every((o) => o.state !== 'not_observed')).toBe(true);
  });
});
