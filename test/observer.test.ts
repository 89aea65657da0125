import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import type { Census } from '../src/domain/census.js';
import { takeCensus } from '../src/operations/census.js';
import { disputeComponent, DisputeRefusedError } from '../src/operations/dispute.js';
import { observeDue, observeNamed, type ObserverDeps } from '../src/operations/observe.js';
import { NotFoundError } from '../src/operations/read-chain.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { demoScenario } from '../src/simulator/demo.js';
import { postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

const demo = demoScenario();
const ref = (kind: string, id: string) => normaliseComponent(kind, id);
const PASS = { batch: 4, concurrency: 3, leaseMs: 60_000 };

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('the observer over the simulator, on %s', (_backend, open) => {
  let t: TestStore;
  let harness: Harness;
  let deps: ObserverDeps & { clock: { set(iso: string): void } };

  beforeEach(async () => {
    t = await open();
    harness = await startHarness({ scenario: demo, today: '2026-03-15' });
    deps = { ...recordDeps(t.store, '2026-03-15T12:00:00Z'), sources: harness.sources };
    await t.store.initialiseLog(deps.notary.seal);
  });
  afterEach(async () => {
    await harness.close();
    await t.dispose();
  });

  it('observes every due component once per UTC date and records what each upstream said', async () => {
    const watched = [
      ref('github', 'acme/rocket'),
      ref('github', 'acme/vanishing'),
      ref('npm', 'left-padded'),
      ref('npm', 'evil-pkg'),
      ref('pypi', 'tiny-parser'),
      ref('pypi', 'yanky'),
      ref('docker', 'node:18-alpine'),
      ref('docker', 'python:3.12-slim-bookworm'),
    ];
    await t.store.watchAdd(watched, '2026-03-15T00:00:00.000Z');
    const first = await observeDue(deps, PASS);
    expect(first).toMatchObject({ observed: 8, skipped: 0, failed: 0 });
    const states = Object.fromEntries(
      await Promise.all(
        watched.map(async (r) => [`${r.kind}:${r.id}`, (await t.store.observationsOf(r))[0]!.state] as const),
      ),
    );
    expect(states).toEqual({
      'github:acme/rocket': 'dormant',
      'github:acme/vanishing': 'deleted',
      'npm:left-padded': 'archived',
      'npm:evil-pkg': 'deleted',
      'pypi:tiny-parser': 'archived',
      'pypi:yanky': 'archived',
      'docker:docker.io/library/node:18-alpine': 'eol',
      'docker:docker.io/library/python:3.12-slim-bookworm': 'alive',
    });
    const rocket = (await t.store.observationsOf(ref('github', 'acme/rocket')))[0]!;
    expect(rocket).toMatchObject({ observation_date: '2026-03-15', observed_at: '2026-03-15T12:00:00Z' });
    expect(rocket.source).toContain('/github/');
    expect(rocket.evidence).toMatchObject({ http_status: 200 });

    expect(await observeDue(deps, PASS)).toMatchObject({ observed: 0, skipped: 0 });
    expect(await observeNamed(deps, [ref('github', 'acme/rocket')], 2)).toMatchObject({ observed: 0, skipped: 1 });
    deps.clock.set('2026-03-16T00:30:00Z');
    expect(await observeDue(deps, PASS)).toMatchObject({ observed: 8 });
    expect(await t.store.observationsOf(ref('github', 'acme/rocket'))).toHaveLength(2);
  });

  it('renews its claims while a slow batch outlasts the lease, so no other worker takes them', async () => {
    const slow = {
      ...harness.sources.github,
      read: async (...args: Parameters<Harness['sources']['github']['read']>) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return harness.sources.github.read(...args);
      },
    };
    const slowDeps = { ...deps, sources: { ...harness.sources, github: slow } };
    const watched = [ref('github', 'acme/rocket'), ref('github', 'acme/vanishing')];
    await t.store.watchAdd(watched, '2026-03-15T00:00:00.000Z');
    // A 300 ms lease from 12:00:00.000, renewed every 100 ms while the reads take a second.
    const pass = observeDue(slowDeps, { batch: 10, concurrency: 2, leaseMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    deps.clock.set('2026-03-15T12:00:00.250Z');
    await new Promise((resolve) => setTimeout(resolve, 480));
    // Past the first lease's end: without renewal another worker would take both components now.
    expect(await t.store.claimDue('2026-03-15T12:00:00.400Z', 10, '2026-03-15T12:10:00.000Z')).toEqual([]);
    expect(await pass).toMatchObject({ observed: 2, failed: 0 });
    for (const w of await t.store.watchList())
      expect(w).toMatchObject({ claimed_until: null, due_at: '2026-03-16T00:00:00.000Z' });
  });

  it('records a rename as evidence, never a death, and watches the new name', async () => {
    await harness.close();
    harness = await startHarness({ scenario: demo, today: '2025-10-15' });
    deps = { ...recordDeps(t.store, '2025-10-15T12:00:00Z'), sources: harness.sources };
    await observeNamed(deps, [ref('github', 'acme/old-name')], 1);
    const [o] = await t.store.observationsOf(ref('github', 'acme/old-name'));
    expect(o!.state).not.toBe('deleted');
    expect(o!.evidence).toMatchObject({ renamed_to: 'github:acme/new-name' });
    expect((await t.store.watchList()).map((w) => w.component.id)).toContain('acme/new-name');
  });

  it('answers a dispute with a dated correction of today’s observation, once per day', async () => {
    await expect(disputeComponent(deps, 'npm', 'left-padded')).rejects.toBeInstanceOf(NotFoundError);
    await observeNamed(deps, [ref('npm', 'left-padded')], 1);
    const answer = await disputeComponent(deps, 'npm', 'left-padded');
    expect(answer.kind_of_record).toBe('correction');
    expect(answer.reread).toMatchObject({
      corrects: answer.disputed.leaf_index,
      observation_date: '2026-03-15',
      state: 'archived',
    });
    await expect(disputeComponent(deps, 'npm', 'left-padded')).rejects.toBeInstanceOf(DisputeRefusedError);
    const held = await t.store.observationsOf(ref('npm', 'left-padded'));
    expect(held).toHaveLength(2);
    expect(held[0]!.corrects).toBeNull();

    deps.clock.set('2026-03-17T09:00:00Z');
    const nextDay = await disputeComponent(deps, 'npm', 'left-padded');
    expect(nextDay).toMatchObject({
      kind_of_record: 'observation',
      reread: { corrects: null, observation_date: '2026-03-17' },
    });
  });

  it('forgets a discovered name no read has shown public once it has been queued a week; an operator’s stays', async () => {
    // Images on registries Tended does not read: every read is not_observed ("unsupported"), for ever.
    const privateImage = ref('docker', 'registry.secretco.example/team/billing:1.0');
    const watchedImage = ref('docker', 'quay.io/acme/tool:1.0');
    await t.store.watchAdd([watchedImage], '2026-03-15T12:00:00.000Z');
    await t.store.queueDiscovered([privateImage], '2026-03-15T12:00:00.000Z', {
      add: true,
      dailyCap: 100,
      countAsked: true,
    });
    const watched = async () => (await t.store.watchList()).map((w) => w.component.id).sort();
    expect(await observeDue(deps, PASS)).toMatchObject({ observed: 1, unconfirmed: 1, dropped: 0 });
    // Six days on, still read once a day and still waiting for a read to show it public.
    deps.clock.set('2026-03-21T12:30:00Z');
    expect(await observeDue(deps, PASS)).toMatchObject({ observed: 1, unconfirmed: 1, dropped: 0 });
    expect(await watched()).toEqual([watchedImage.id, privateImage.id].sort());
    // A week after it was queued, its next failed read forgets it with no trace; the operator's image stays.
    deps.clock.set('2026-03-22T12:00:00Z');
    expect(await observeDue(deps, PASS)).toMatchObject({ observed: 1, unconfirmed: 0, dropped: 1 });
    expect(await watched()).toEqual([watchedImage.id]);
    expect(await t.store.observationsOf(privateImage)).toEqual([]);
    expect((await t.store.observationsOf(watchedImage)).map((o) => o.state)).toEqual([
      'not_observed',
      'not_observed',
      'not_observed',
    ]);
    // Asked about again, it is a new name, queued afresh.
    const again = { add: true, dailyCap: 100, countAsked: true };
    expect(await t.store.queueDiscovered([privateImage], '2026-03-22T12:00:00.000Z', again)).toMatchObject({
      added: 1,
    });
  });

  it('takes a census of the watched npm packages and chains it', async () => {
    await t.store.watchAdd(
      [ref('npm', 'left-padded'), ref('npm', '@acme/widgets'), ref('github', 'acme/rocket')],
      '2026-03-15T00:00:00.000Z',
    );
    const census: Census[] = [];
    const summary = await takeCensus(deps, undefined, undefined, { onAppended: (c) => census.push(...c) });
    // Read from the registry's listing, most depended-upon first: one request for both.
    expect(census.map((c) => [c.component.id, c.dependents])).toEqual([
      ['left-padded', 42],
      ['@acme/widgets', 9],
    ]);
    expect(summary).toMatchObject({ read: 2, counted: 2, perPackage: 0, incomplete: [] });
    expect(census[0]!.source).toMatch(/\/registries\/npmjs\.org\/packages\?sort=dependent_packages_count&order=desc/);
    expect(await t.store.latestCensus(ref('npm', 'left-padded'))).toMatchObject({
      dependents: 42,
      read_date: '2026-03-15',
    });
  });
});
