import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseComponent, type ComponentRef } from '../src/domain/component.js';
import type { State } from '../src/domain/state.js';
import { observeDue, observeNamed } from '../src/operations/observe.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { parseScenario, type Scenario } from '../src/simulator/scenario.js';
import { COMMON_FAILS } from '../src/simulator/scenario-phases.js';
import { postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * Every state and failure mode of DESIGN §3 on every kind, read from the simulator and recorded on
 * both store backends: what the record holds, not only what a reader returns.
 */
const TODAY = '2026-03-15';
const at = (date: string) => `${date}T10:00:00Z`;
const cases: { key: string; phase: Record<string, unknown>; state: State }[] = [];
const add = (key: string, phase: Record<string, unknown>, state: State) =>
  cases.push({ key, phase: { from: '2020-01-01', ...phase }, state });
// A common failure yields not_observed everywhere, except an authoritative not-found.
// Maven Central and the Go proxy prove no deletion: their not-found is not_observed too.
const failures = (prefix: string, healthy: Record<string, unknown>, notFound: State = 'deleted') => {
  for (const fail of COMMON_FAILS)
    add(
      `${prefix}fail-${fail.replaceAll('_', '-')}`,
      { ...healthy, fail },
      fail === 'not_found' ? notFound : 'not_observed',
    );
};

const github = { created_at: at('2019-01-01'), pushed_at: at('2026-01-01'), last_commit: at('2026-01-01') };
add('github:cases/alive', github, 'alive');
add('github:cases/alive-180', { ...github, pushed_at: at('2025-09-16'), last_commit: at('2025-09-16') }, 'alive');
add('github:cases/dormant-181', { ...github, pushed_at: at('2025-09-15'), last_commit: at('2025-09-15') }, 'dormant');
add('github:cases/dormant-365', { ...github, pushed_at: at('2025-03-15'), last_commit: at('2025-03-15') }, 'dormant');
add(
  'github:cases/abandoned-366',
  { ...github, pushed_at: at('2025-03-14'), last_commit: at('2025-03-14') },
  'abandoned',
);
add('github:cases/archived', { ...github, archived: true }, 'archived');
add('github:cases/dmca', { ...github, fail: 'dmca' }, 'deleted');
add('github:cases/tos', { ...github, fail: 'tos_block' }, 'deleted');
add('github:cases/forbidden', { ...github, fail: 'forbidden' }, 'not_observed');
add('github:cases/empty', { ...github, fail: 'empty_repo', created_at: at('2020-01-01') }, 'abandoned');
failures('github:cases/', github);

const npm = { versions: { '1.0.0': at('2024-01-01'), '1.1.0': at('2026-01-01') } };
add('npm:alive', npm, 'alive');
add('npm:dormant', { versions: { '1.0.0': at('2025-06-01') } }, 'dormant');
add('npm:abandoned', { versions: { '1.0.0': at('2023-06-01') } }, 'abandoned');
add('npm:deprecated', { ...npm, deprecated: 'use something else' }, 'archived');
add('npm:unpublished', { ...npm, fail: 'unpublished' }, 'deleted');
add('npm:holding', { ...npm, fail: 'security_holding' }, 'deleted');
add('npm:@scope/alive', npm, 'alive');
failures('npm:', npm);

const pypi = { releases: { '1.0': at('2024-01-01'), '1.1': at('2026-01-01') } };
add('pypi:alive', pypi, 'alive');
add('pypi:dormant', { releases: { '1.0': at('2025-06-01') } }, 'dormant');
add('pypi:abandoned', { releases: { '1.0': at('2023-06-01') } }, 'abandoned');
add('pypi:inactive', { ...pypi, classifiers: ['Development Status :: 7 - Inactive'] }, 'archived');
add('pypi:status-archived', { ...pypi, project_status: 'archived' }, 'archived');
add('pypi:yanked', { ...pypi, fail: 'all_yanked' }, 'archived');
failures('pypi:', pypi);

const docker = { tag_last_pushed: at('2026-02-01') };
add('docker:redis:7', docker, 'alive');
add('docker:redis:6', { tag_last_pushed: at('2025-06-01') }, 'dormant');
add('docker:redis:5', { tag_last_pushed: at('2023-06-01') }, 'abandoned');
add('docker:node:18-alpine', docker, 'eol');
add('docker:openjdk:17', docker, 'archived');
for (const fail of COMMON_FAILS)
  add(
    `docker:redis:fail-${fail.replaceAll('_', '-')}`,
    { ...docker, fail },
    fail === 'not_found' ? 'deleted' : 'not_observed',
  );

const maven = { versions: { '1.0': at('2024-01-01'), '1.1': at('2026-01-01') } };
add('maven:org.cases:alive', maven, 'alive');
add('maven:org.cases:dormant', { versions: { '1.0': at('2025-06-01') } }, 'dormant');
add('maven:org.cases:abandoned', { versions: { '1.0': at('2023-06-01') } }, 'abandoned');
add('maven:org.cases:relocated', { ...maven, relocation: { group_id: 'io.cases' } }, 'archived');
add('maven:org.cases:no-pom', { ...maven, fail: 'pom_missing' }, 'alive');
add('maven:org.cases:blocked', { ...maven, fail: 'blocked' }, 'not_observed');
failures('maven:org.cases:', maven, 'not_observed');

const golang = { versions: { 'v1.0.0': at('2024-01-01'), 'v1.1.0': at('2026-01-01') } };
add('golang:example.com/alive', golang, 'alive');
add('golang:example.com/dormant', { versions: { 'v0.1.0': at('2025-06-01') } }, 'dormant');
add('golang:example.com/abandoned', { versions: { 'v0.1.0': at('2023-06-01') } }, 'abandoned');
add('golang:example.com/deprecated', { ...golang, deprecated: 'use example.com/other' }, 'archived');
add('golang:example.com/gone-410', { ...golang, fail: 'gone_410' }, 'not_observed');
add('golang:github.com/cases/archived-repo', golang, 'archived');
add('github:cases/archived-repo', { ...github, archived: true }, 'archived');
add('golang:github.com/cases/no-repo', golang, 'deleted');
failures('golang:example.com/', golang, 'not_observed');

const gem = { versions: { '1.0.0': at('2024-01-01'), '1.1.0': at('2026-01-01') } };
add('gem:alive', gem, 'alive');
add('gem:dormant', { versions: { '1.0.0': at('2025-06-01') } }, 'dormant');
add('gem:abandoned', { versions: { '1.0.0': at('2023-06-01') } }, 'abandoned');
add('gem:yanked', { ...gem, fail: 'all_yanked' }, 'deleted');
failures('gem:', gem);

const cargo = { versions: { '1.0.0': at('2024-01-01'), '1.1.0': at('2026-01-01') } };
add('cargo:cases-alive', cargo, 'alive');
add('cargo:cases-dormant', { versions: { '1.0.0': at('2025-06-01') } }, 'dormant');
add('cargo:cases-abandoned', { versions: { '1.0.0': at('2023-06-01') } }, 'abandoned');
add('cargo:cases-yanked', { ...cargo, yanked: ['1.0.0', '1.1.0'] }, 'archived');
add('cargo:cases-old-lines', { ...cargo, no_pubtime: true }, 'alive');
failures('cargo:cases-', cargo);

const nuget = { versions: { '1.0.0': at('2024-01-01'), '1.1.0': at('2026-01-01') } };
add('nuget:cases.alive', nuget, 'alive');
add('nuget:cases.dormant', { versions: { '1.0.0': at('2025-06-01') } }, 'dormant');
add('nuget:cases.abandoned', { versions: { '1.0.0': at('2023-06-01') } }, 'abandoned');
add('nuget:cases.legacy', { ...nuget, deprecation: ['Legacy'] }, 'archived');
add('nuget:cases.unlisted', { ...nuget, unlisted: ['1.0.0', '1.1.0'] }, 'archived');
failures('nuget:cases.', nuget);

const composer = { versions: { 'v1.0.0': at('2024-01-01'), 'v1.1.0': at('2026-01-01') } };
add('composer:cases/alive', composer, 'alive');
add('composer:cases/dormant', { versions: { '1.0.0': at('2025-06-01') } }, 'dormant');
add('composer:cases/abandoned-age', { versions: { '1.0.0': at('2023-06-01') } }, 'abandoned');
add('composer:cases/flagged', { ...composer, abandoned: 'cases/other' }, 'archived');
failures('composer:cases/', composer);

// Distribution releases are read from the listing below; their phases only say they exist.
add('distro:debian/12', {}, 'alive');
add('distro:debian/11', {}, 'eol');
// Supported (to 2030), its last point release 200 days old: alive on the listing's word (issue 27 item 7).
add('distro:debian/10', {}, 'alive');
add('distro:debian/7', {}, 'not_observed');

const scenario: Scenario = parseScenario({
  components: Object.fromEntries(cases.map((c) => [c.key, [c.phase]])),
  endoflife: {
    nodejs: {
      aliases: ['node'],
      phases: [
        {
          from: '2020-01-01',
          releases: [
            { name: '18', eolFrom: '2025-04-30' },
            { name: '22', eolFrom: '2027-04-30' },
          ],
        },
      ],
    },
    debian: {
      phases: [
        {
          from: '2020-01-01',
          releases: [
            { name: '12', eolFrom: '2026-06-10', latest: '12.9', latestDate: '2026-01-11' },
            { name: '11', eolFrom: '2024-08-14', latest: '11.11', latestDate: '2024-08-31' },
            // Not a real date for Debian 10: a supported release whose last point release was 200 days ago.
            { name: '10', eolFrom: '2030-01-01', latest: '10.13', latestDate: '2025-08-27' },
          ],
        },
      ],
    },
  },
});
const refOf = (key: string): ComponentRef =>
  normaliseComponent(key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1));

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('every state and failure mode, recorded on %s', (_backend, open) => {
  let t: TestStore;
  let harness: Harness;

  beforeAll(async () => {
    t = await open();
    harness = await startHarness({ scenario, today: TODAY });
  });
  afterAll(async () => {
    await harness.close();
    await t.dispose();
  });

  it(`records the state DESIGN §3 gives for each of ${cases.length} cases, with its evidence`, async () => {
    const deps = recordDeps(t.store, `${TODAY}T12:00:00Z`);
    await t.store.initialiseLog(deps.notary.seal);
    // Fresh readers per case: a rate limit read for one case must not hold back the next.
    for (const c of cases) await observeNamed({ ...deps, sources: harness.newSources() }, [refOf(c.key)], 1);
    const recorded = await Promise.all(
      cases.map(async (c) => [c.key, (await t.store.observationsOf(refOf(c.key)))[0]?.state]),
    );
    expect(Object.fromEntries(recorded)).toEqual(Object.fromEntries(cases.map((c) => [c.key, c.state])));
    const limited = (await t.store.observationsOf(refOf('github:cases/fail-rate-limit-403')))[0]!;
    expect(limited.evidence).toMatchObject({ http_status: 403 });
    expect(JSON.stringify(limited.evidence)).toMatch(/ratelimit|retry/i);
  }, 60_000);
});

describe('a pass under fault injection', () => {
  it('never records a component that is alive upstream as deleted', async () => {
    const t = await sqliteTestStore();
    // Copies are named `…-0` to `…-11`, which no distribution release is.
    const alive = cases.filter((c) => c.state === 'alive' && !c.key.startsWith('distro:'));
    const many = parseScenario({
      components: Object.fromEntries(
        alive.flatMap((c) => Array.from({ length: 12 }, (_, i) => [`${c.key}-${i}`, [c.phase]])),
      ),
    });
    const harness = await startHarness({ scenario: many, today: TODAY, chaos: { rate: 0.3, seed: 7 } });
    try {
      const deps = { ...recordDeps(t.store, `${TODAY}T12:00:00Z`), sources: harness.sources };
      await t.store.initialiseLog(deps.notary.seal);
      const refs = Object.keys(many.components).map(refOf);
      await t.store.watchAdd(refs, `${TODAY}T00:00:00.000Z`);
      const report = await observeDue(deps, { batch: 20, concurrency: 8, leaseMs: 60_000 });
      // A read never sent (its upstream asked every reader to wait) is deferred: no leaf, due again later.
      expect(report.observed + report.deferred).toBe(refs.length);
      expect(Object.keys(report.states).sort()).toEqual(['alive', 'not_observed']);
      expect(report.states.not_observed).toBeGreaterThan(0);
    } finally {
      await harness.close();
      await t.dispose();
    }
  }, 60_000);
});
