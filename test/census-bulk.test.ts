import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Census } from '../src/domain/census.js';
import type { ComponentRef } from '../src/domain/component.js';
import { takeCensus, type CensusOptions } from '../src/operations/census.js';
import type { ObserverDeps } from '../src/operations/observe.js';
import type { Scenario } from '../src/simulator/scenario.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { MemoryConditionalCache } from '../src/upstreams/http/memory-cache.js';
import { createSources } from '../src/upstreams/sources.js';
import type { Sources } from '../src/upstreams/source.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * The census read in bulk over the simulator: the dependents source's listing, a page of counts a
 * request, with its failures (a 5xx, a 429 with its rate-limit headers, a malformed page), and the
 * per-package reads for what the listing does not reach. Every count recorded is the count that
 * package's own answer gives; nothing is recorded for a package a failed page would have listed.
 */

const TODAY = '2026-03-01';
// 30 npm packages counting 30 down to 1 (two ties), three counting 0, and a PyPI pair.
const COUNTS: Record<string, number> = Object.fromEntries([
  ...Array.from({ length: 30 }, (_, i) => [`pkg-${String(i).padStart(2, '0')}`, 30 - i] as const),
  ['tie-a', 12],
  ['tie-b', 12],
  ['zero-1', 0],
  ['zero-2', 0],
  ['zero-3', 0],
]);
const scenario = (faults: Scenario['dependents_listing_faults'] = []): Scenario => ({
  components: {
    ...Object.fromEntries(
      Object.entries(COUNTS).map(([name, n]) => [`npm:${name}`, [{ from: '2020-01-01', dependents: n }]]),
    ),
    'npm:unindexed': [{ from: '2020-01-01', versions: { '1.0.0': '2025-01-01T00:00:00.000Z' } }],
    'pypi:requests': [{ from: '2020-01-01', dependents: 70 }],
    'pypi:tiny': [{ from: '2020-01-01', dependents: 2 }],
  },
  dependents_listing_faults: faults,
});
const npm = (id: string): ComponentRef => ({ kind: 'npm', id });

let sim: Simulator;
let t: TestStore;
let deps: ObserverDeps;
let sources: Sources;

async function start(s: Scenario) {
  sim = await startSimulator({ scenario: s, clock: () => new Date(`${TODAY}T12:00:00Z`), hangMs: 2_000 });
  sources = createSources({
    urls: sim.urls,
    githubToken: null,
    userAgent: 'tended-test/0.1.0 (+simulator)',
    timeoutMs: 500,
    concurrency: 2,
    cache: new MemoryConditionalCache(),
  });
  deps = { ...recordDeps(t.store, `${TODAY}T12:00:00Z`), sources };
  await t.store.initialiseLog(deps.notary.seal);
}

beforeEach(async () => {
  t = await sqliteTestStore();
});
afterEach(async () => {
  await sim.close();
  await t.dispose();
});

const waits: number[] = [];
const OPTIONS: CensusOptions = {
  perPage: 5,
  // A real wait: the reader's own hold after a 429 must have passed when the page is tried again.
  sleep: (ms) => {
    waits.push(ms);
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
};
const run = async (options: CensusOptions = {}) => {
  const census: Census[] = [];
  const summary = await takeCensus(deps, undefined, undefined, {
    ...OPTIONS,
    ...options,
    onAppended: (c) => census.push(...c),
  });
  return { census, summary };
};
const listingRequests = () => sim.requests.filter((r) => r.path.includes('/packages?'));

describe('the census read in bulk', () => {
  it('lists every package most depended-upon first, each with the count its own answer gives', async () => {
    await start(scenario());
    const seen: { name: string; dependents: number | null }[] = [];
    for (let page = 1; ; page++) {
      const answer = await sources.dependents.list('npm', page, 7);
      if (answer?.kind !== 'page') throw new Error(`page ${page} failed`);
      seen.push(...answer.entries);
      if (answer.entries.length < 7) break;
    }
    expect(seen.map((e) => e.name).sort()).toEqual(Object.keys(COUNTS).sort());
    const counts = seen.map((e) => e.dependents!);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const e of seen) expect((await sources.dependents.read(npm(e.name))).dependents).toBe(e.dependents);
    // A kind the source counts nothing for is not listed.
    expect(await sources.dependents.list('nuget', 1, 7)).toBeNull();
  });

  it('records the watched packages a page at a time, down to the threshold, and resumes a page that failed', async () => {
    await start(
      scenario([
        { registry: 'npmjs.org', page: 2, fail: 'server_error', times: 1 },
        { registry: 'npmjs.org', page: 3, fail: 'rate_limit_429', times: 1 },
        { registry: 'npmjs.org', page: 4, fail: 'malformed', times: 2 },
      ]),
    );
    const watched = ['pkg-00', 'pkg-06', 'pkg-11', 'tie-b', 'pkg-17', 'pkg-29', 'zero-2'].map(npm);
    await t.store.watchAdd([...watched, { kind: 'pypi', id: 'requests' }], `${TODAY}T00:00:00.000Z`);
    waits.length = 0;
    const { census, summary } = await run({ minDependents: 13 });
    // The listing went down to the first count below 13 (page 4: counts 15…11); nothing below was asked.
    const pages = listingRequests().filter((r) => r.path.includes('npmjs.org'));
    expect(pages.map((r) => [/&page=(\d+)/.exec(r.path)![1], r.status])).toEqual([
      ['1', 200],
      ['2', 500],
      ['2', 200],
      ['3', 429],
      ['3', 200],
      ['4', 200],
      ['4', 200],
      ['4', 200],
    ]);
    // Each wait as asked: 1 s after the 5xx, the 429's Retry-After, then 1 s and 2 s for the malformed page.
    expect(waits.slice(0, 4)).toEqual([1_000, 1_000, 1_000, 2_000]);
    // Each watched package the listing reached is recorded once, from its page, with its own count.
    const fromListing = census.filter((c) => c.source.includes('?sort='));
    expect(fromListing.map((c) => [c.component.kind, c.component.id, c.dependents])).toEqual([
      ['npm', 'pkg-00', 30],
      ['npm', 'pkg-06', 24],
      ['npm', 'pkg-11', 19],
      ['npm', 'pkg-17', 13],
      ['pypi', 'requests', 70],
    ]);
    for (const c of fromListing) {
      expect(c.source).toMatch(/\/packages\?sort=dependent_packages_count&order=desc&per_page=5&page=\d$/);
      expect(c.evidence['http_status']).toBe(200);
      expect(typeof c.evidence['position']).toBe('number');
    }
    // Below the threshold and never counted (tie-b sits past the page that ended the listing): one by one.
    expect(census.filter((c) => !c.source.includes('?sort=')).map((c) => [c.component.id, c.dependents])).toEqual([
      ['pkg-29', 1],
      ['tie-b', 12],
      ['zero-2', 0],
    ]);
    for (const c of census) {
      expect(c.dependents).toBe((await sources.dependents.read(c.component)).dependents);
      expect(c.read_date).toBe(TODAY);
    }
    expect(summary).toMatchObject({ incomplete: [], read: census.length });
  }, 30_000);

  it('stops a listing that keeps failing without a false count, and the next run resumes it', async () => {
    await start(scenario([{ registry: 'npmjs.org', page: 2, fail: 'server_error' }]));
    await t.store.watchAdd(['pkg-01', 'pkg-07', 'pkg-12', 'zero-1'].map(npm), `${TODAY}T00:00:00.000Z`);
    const first = await run({ retries: 1, firstReads: 0 });
    expect(first.summary.incomplete).toEqual(['npm']);
    // Page 1 was read; page 2 never answered: nothing recorded for what it would have listed.
    expect(first.census.map((c) => [c.component.id, c.dependents])).toEqual([['pkg-01', 29]]);
    expect(await t.store.latestCensus(npm('pkg-07'))).toBeNull();
    expect(await t.store.latestCensus(npm('zero-1'))).toBeNull();

    sim.setScenario(scenario());
    const second = await run({ firstReads: 0 });
    expect(second.summary.incomplete).toEqual([]);
    expect(second.census.map((c) => [c.component.id, c.dependents])).toEqual([
      ['pkg-01', 29],
      ['pkg-07', 23],
      ['pkg-12', 18],
      ['zero-1', 0],
    ]);
    expect(second.summary.perPackage).toBe(0);
  }, 30_000);

  it('reads one by one a package whose page rests on a count the listing no longer reaches', async () => {
    await start(scenario());
    await t.store.watchAdd([npm('pkg-25')], `${TODAY}T00:00:00.000Z`);
    // An earlier census counted 40: today the listing stops above its 5 (threshold 10).
    await t.store.appendCensus(
      [
        {
          component: npm('pkg-25'),
          read_at: '2026-01-01T00:00:00Z',
          read_date: '2026-01-01',
          dependents: 40,
          source: 'https://packages.ecosyste.ms/api/v1/registries/npmjs.org/packages/pkg-25',
          evidence: { http_status: 200 },
          method: 'ecosyste.ms packages API',
        },
      ],
      deps.notary.seal,
    );
    const { census, summary } = await run({ minDependents: 10, firstReads: 0 });
    expect(census.map((c) => [c.component.id, c.dependents, c.source.includes('?sort=')])).toEqual([
      ['pkg-25', 5, false],
    ]);
    expect(summary.perPackage).toBe(1);
    expect(await t.store.adoptedPage(null, 10, 10)).toEqual([]);
  }, 30_000);
});

describe('the listing of a generated registry', () => {
  it('counts millions without a table: pages deep in it agree with each package’s own answer', async () => {
    sim = await startSimulator({
      scenario: { components: { 'npm:scenario-top': [{ from: '2020-01-01', dependents: 150 }] } },
      clock: () => new Date(`${TODAY}T12:00:00Z`),
      registries: { seed: 7, scale: { npm: 0.001 } },
    });
    sources = createSources({
      urls: sim.urls,
      githubToken: null,
      userAgent: 'tended-test/0.1.0 (+simulator)',
      timeoutMs: 2_000,
      concurrency: 2,
      cache: new MemoryConditionalCache(),
    });
    const all: { name: string; dependents: number | null }[] = [];
    for (let page = 1; ; page++) {
      const answer = await sources.dependents.list('npm', page, 1_000);
      if (answer?.kind !== 'page') throw new Error(`page ${page} failed`);
      all.push(...answer.entries);
      if (answer.entries.length < 1_000) break;
    }
    const reg = sim.registries!.get('npm')!;
    expect(all).toHaveLength(reg.packagesBy(Date.parse(`${TODAY}T12:00:00Z`)) + 1);
    expect(new Set(all.map((e) => e.name)).size).toBe(all.length);
    const counts = all.map((e) => e.dependents!);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(all[0]!.dependents).toBeGreaterThan(150);
    expect(all.findIndex((e) => e.name === 'scenario-top')).toBe(counts.filter((c) => c > 150).length);
    for (const at of [0, 1, 2, 100, 1_999, 3_000, all.length - 1])
      expect((await sources.dependents.read(npm(all[at]!.name))).dependents).toBe(all[at]!.dependents);
  }, 30_000);
});
