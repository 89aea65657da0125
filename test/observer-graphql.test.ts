import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import type { Scenario } from '../src/simulator/scenario.js';
import type { GithubPhase } from '../src/simulator/scenario-phases.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import { postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * With a token the observer's concurrent GitHub reads go out as GraphQL batches: 150 repositories
 * read at once are two queries, and every reading lands as REST's would. A secondary limit on the
 * batch defers every read in it (no leaf at all), and a pass after the hold reads them on the same date.
 */
const DAY = '2026-03-15';
const N = 150;
const phase = (i: number): GithubPhase =>
  i % 3 === 0
    ? { from: '2025-01-01', pushed_at: '2026-03-01T10:00:00Z', archived: true }
    : { from: '2025-01-01', created_at: '2021-01-01T00:00:00Z', pushed_at: '2026-03-01T10:00:00Z' };
const components: Record<string, GithubPhase[]> = {
  ...Object.fromEntries(Array.from({ length: N - 1 }, (_, i) => [`github:acme/r${i}`, [phase(i)]])),
  'github:acme/gone': [{ from: '2025-01-01', fail: 'not_found' }],
};
const refs = Object.keys(components).map((k) => normaliseComponent('github', k.slice('github:'.length)));
const pass = { batch: 200, concurrency: 200, leaseMs: 60_000 };

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('the observer reads GitHub in GraphQL batches, on %s', (_backend, open) => {
  let t: TestStore;
  let simulator: Simulator;
  let now = Date.parse(`${DAY}T12:00:00Z`);
  let deps: ObserverDeps;

  const start = async (scenario: Scenario) => {
    simulator = await startSimulator({ scenario, clock: () => new Date(now) });
    deps = {
      ...recordDeps(t.store, `${DAY}T12:00:00Z`),
      clock: { now: () => new Date(now) },
      sources: createSources({
        urls: simulator.urls,
        githubToken: 'test-token',
        userAgent: 'tended-test',
        timeoutMs: 2_000,
        concurrency: 4,
        cache: new MemoryConditionalCache(),
        now: () => now,
      }),
    };
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.watchAdd(refs, `${DAY}T00:00:00.000Z`);
  };

  beforeEach(async () => {
    now = Date.parse(`${DAY}T12:00:00Z`);
    t = await open();
  });
  afterEach(async () => {
    await simulator.close();
    await t.dispose();
  });

  const states = async () => {
    const out: Record<string, number> = {};
    for (const ref of refs) for (const o of await t.store.observationsOf(ref)) out[o.state] = (out[o.state] ?? 0) + 1;
    return out;
  };
  const queries = () => simulator.requests.filter((r) => r.path === '/github/graphql').length;

  it('150 repositories in 2 queries, the deleted one read through REST', async () => {
    await start({ components });
    expect(await observeDue(deps, pass)).toMatchObject({ observed: N, deferred: 0 });
    expect(queries()).toBe(2);
    expect(simulator.requests.filter((r) => r.path !== '/github/graphql').map((r) => r.path)).toEqual([
      '/github/repos/acme/gone',
    ]);
    expect(await states()).toEqual({ archived: 50, alive: 99, deleted: 1 });
    const [gone] = await t.store.observationsOf(normaliseComponent('github', 'acme/gone'));
    expect(gone!.evidence).toMatchObject({
      http_status: 404,
      graphql_fallback: expect.stringMatching(/^NOT_FOUND/) as unknown,
    });
  });

  it('a secondary limit defers the batch, writing nothing; a pass after the hold reads it the same date', async () => {
    await start({ components, github_graphql: { fail: 'secondary_rate_limit' } });
    const noon = await observeDue(deps, pass);
    expect(noon.observed).toBe(0);
    expect(noon.deferred).toBe(N);
    expect(await states()).toEqual({});
    simulator.setScenario({ components });
    // The 403's retry-after is 60 s: at 12:00:30 nothing is due and nothing is sent.
    now += 30_000;
    const sent = simulator.requests.length;
    expect(await observeDue(deps, pass)).toMatchObject({ observed: 0, deferred: 0 });
    expect(simulator.requests.length).toBe(sent);
    now += 60_000;
    expect(await observeDue(deps, pass)).toMatchObject({ observed: N, deferred: 0 });
    expect(await states()).toEqual({ archived: 50, alive: 99, deleted: 1 });
    for (const o of await t.store.observationsOf(refs[0]!)) expect(o.observation_date).toBe(DAY);
  });
});
