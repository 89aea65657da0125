import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentRef } from '../src/domain/component.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import { postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * DESIGN §3 "Rate limits defer": GitHub's limit is per token, so one 403 holds every GitHub read
 * back. The read that met the 403 is recorded not_observed with its evidence; the reads never sent
 * write no leaf and fall due when the hold ends, so a later pass the same UTC day reads them.
 */
const DAY = '2026-03-15';
const repos = ['acme/one', 'acme/two', 'acme/three', 'acme/four'];
const alive = {
  from: '2025-01-01',
  created_at: '2021-01-01T00:00:00Z',
  pushed_at: '2026-03-01T10:00:00Z',
  last_commit: '2026-03-01T10:00:00Z',
};
const scenario = parseScenario({
  components: {
    // GitHub's primary-limit 403 (x-ratelimit-remaining 0, reset ten minutes on) for this one.
    'github:acme/one': [{ from: '2025-01-01', fail: 'rate_limit_403' }],
    ...Object.fromEntries(repos.slice(1).map((r) => [`github:${r}`, [alive]])),
    'npm:steady': [{ from: '2025-01-01', versions: { '1.0.0': '2026-02-01T10:00:00.000Z' } }],
  },
});

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('a rate limit defers the reads it stopped, on %s', (_backend, open) => {
  let t: TestStore;
  let simulator: Simulator;
  let now = Date.parse(`${DAY}T12:00:00Z`);
  let deps: ObserverDeps;

  beforeEach(async () => {
    now = Date.parse(`${DAY}T12:00:00Z`);
    t = await open();
    simulator = await startSimulator({ scenario, clock: () => new Date(now) });
    const base = recordDeps(t.store, `${DAY}T12:00:00Z`);
    deps = {
      ...base,
      clock: { now: () => new Date(now) },
      sources: createSources({
        urls: simulator.urls,
        githubToken: null,
        userAgent: 'tended-test',
        timeoutMs: 2_000,
        concurrency: 1,
        cache: new MemoryConditionalCache(),
        now: () => now,
      }),
    };
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.watchAdd(
      [...repos.map((r) => normaliseComponent('github', r)), normaliseComponent('npm', 'steady')],
      `${DAY}T00:00:00.000Z`,
    );
  });
  afterEach(async () => {
    await simulator.close();
    await t.dispose();
  });

  const observations = async (ref: ComponentRef) => t.store.observationsOf(ref);

  it('records only the read that met the 403; a later pass the same date reads the rest', async () => {
    const pass = { batch: 10, concurrency: 1, leaseMs: 60_000 };
    const noon = await observeDue(deps, pass);
    expect(noon.observed + noon.deferred).toBe(5);
    expect(noon.deferred).toBeGreaterThan(0);
    const met = await observations(normaliseComponent('github', 'acme/one'));
    expect(met).toHaveLength(1);
    expect(met[0]).toMatchObject({ state: 'not_observed', observation_date: DAY });
    expect(met[0]!.evidence).toMatchObject({ unreachable: 'rate_limited', http_status: 403 });
    // GitHub's hold is per token: npm is read as usual.
    expect((await observations(normaliseComponent('npm', 'steady'))).map((o) => o.state)).toEqual(['alive']);
    const held = [];
    for (const r of repos.slice(1)) {
      const list = await observations(normaliseComponent('github', r));
      if (list.length === 0) held.push(r);
      else expect(list.map((o) => o.state)).toEqual(['alive']);
    }
    // The reads never sent wrote no leaf at all (not a not_observed one).
    expect(held).toHaveLength(noon.deferred);

    // 12:05: the hold runs until 12:10, so nothing is due and nothing is sent.
    now = Date.parse(`${DAY}T12:05:00Z`);
    const requests = simulator.requests.length;
    expect(await observeDue(deps, pass)).toMatchObject({ observed: 0, deferred: 0 });
    expect(simulator.requests.length).toBe(requests);

    // 15:00: the deferred repositories are read, on the same date; the 403 one waits for tomorrow.
    now = Date.parse(`${DAY}T15:00:00Z`);
    expect(await observeDue(deps, pass)).toMatchObject({ observed: held.length, deferred: 0 });
    for (const r of held) {
      const list = await observations(normaliseComponent('github', r));
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ observation_date: DAY, state: 'alive' });
      expect(list[0]!.observed_at.startsWith(`${DAY}T15:`)).toBe(true);
    }
    expect(await observations(normaliseComponent('github', 'acme/one'))).toHaveLength(1);
  });
});
