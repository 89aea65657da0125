import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseComponent } from '../src/domain/component.js';
import { build } from '../src/http/app.js';
import type { EvidenceValue } from '../src/domain/observation.js';
import type { DependencyRisk, InterfaceRow, SchemaHistory, TrustFacts } from '../src/operations/facts.js';
import { observeNamed } from '../src/operations/observe.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import type { Scenario } from '../src/simulator/scenario.js';
import { jsonOf, type Json, type ValidationAnswer } from './support/json.js';
import { recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/** Any of the three fact answers: each names the component, carries a note and the license. */
type FactAnswer = TrustFacts | SchemaHistory | DependencyRisk;
/** A schema history of an npm package, whose rows carry the interface facts npm declares. */
type NpmSchemaHistory = Omit<SchemaHistory, 'history'> & {
  history: (Omit<InterfaceRow, 'interface'> & { interface: { license: EvidenceValue; deprecated: EvidenceValue } })[];
};

const ROUTES = ['trust_score', 'schema_history', 'dependency_risk'] as const;

const scenario: Scenario = {
  components: {
    'npm:iface': [
      {
        from: '2020-01-01',
        versions: { '1.0.0': '2025-12-01T10:00:00.000Z' },
        license: 'MIT',
        engines: { node: '>=18' },
        types: true,
        dependencies: { 'dep-alive': '^1.0.0', 'dep-gone': '^2.0.0', 'dep-unwatched': '^1.0.0' },
      },
      {
        from: '2026-06-01',
        versions: { '1.0.0': '2025-12-01T10:00:00.000Z', '2.0.0': '2026-06-01T10:00:00.000Z' },
        license: 'Apache-2.0',
        engines: { node: '>=20' },
        types: true,
        exports: true,
        dependencies: { 'dep-alive': '^1.0.0', 'dep-gone': '^2.0.0', 'dep-unwatched': '^1.0.0' },
      },
    ],
    // The latest version is deprecated in March and relicensed in June, with no new release.
    'npm:sunset': [
      { from: '2020-01-01', versions: { '3.0.0': '2025-10-01T10:00:00.000Z' }, license: 'MIT', types: true },
      {
        from: '2026-03-01',
        versions: { '3.0.0': '2025-10-01T10:00:00.000Z' },
        license: 'MIT',
        types: true,
        deprecated: 'Use sunrise instead.',
      },
      {
        from: '2026-06-15',
        versions: { '3.0.0': '2025-10-01T10:00:00.000Z' },
        license: 'ISC',
        types: true,
        deprecated: 'Use sunrise instead.',
      },
    ],
    'npm:dep-alive': [{ from: '2020-01-01', versions: { '1.0.0': '2026-05-01T00:00:00.000Z' } }],
    'npm:dep-gone': [{ from: '2020-01-01', fail: 'not_found' }],
    'npm:dep-unwatched': [{ from: '2020-01-01', versions: { '1.0.0': '2026-05-01T00:00:00.000Z' } }],
  },
};

let t: TestStore;
let app: ReturnType<typeof build>;
let deps: ReturnType<typeof recordDeps>;
const harnesses: Harness[] = [];

/** Observes `ids` with the simulator and the clock at `date`. */
async function observeOn(date: string, ids: string[]) {
  const harness = await startHarness({ scenario, today: date });
  harnesses.push(harness);
  deps.clock.set(`${date}T12:00:00Z`);
  await observeNamed(
    { ...deps, sources: harness.sources },
    ids.map((id) => normaliseComponent('npm', id)),
    2,
  );
}

beforeEach(async () => {
  t = await sqliteTestStore();
  deps = recordDeps(t.store, '2026-07-01T12:00:00Z');
  await t.store.initialiseLog(deps.notary.seal);
  const harness = await startHarness({ scenario, today: '2026-07-01' });
  harnesses.push(harness);
  app = build({ ...deps, sources: harness.sources, logError: (e) => console.error(e) });
});
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await t.dispose();
});

const get = async <T = Json>(path: string) => {
  const res = await app.request(path);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    link: res.headers.get('link'),
    body: await jsonOf<T>(res),
  };
};

/** Spec §7: `detail` is an array of objects, each with exactly loc (strings or integers), msg and type. */
function expectSpec422(r: { status: number; body: ValidationAnswer }, loc: (string | number)[], type: string) {
  expect(r.status).toBe(422);
  expect(Object.keys(r.body)).toEqual(['detail']);
  expect(Array.isArray(r.body.detail)).toBe(true);
  expect(r.body.detail).toHaveLength(1);
  const item = r.body.detail[0]!;
  expect(Object.keys(item).sort()).toEqual(['loc', 'msg', 'type']);
  expect(item.loc).toEqual(loc);
  expect(item.loc.every((p: unknown) => typeof p === 'string' || Number.isInteger(p))).toBe(true);
  expect(typeof item.msg).toBe('string');
  expect(item.msg.length).toBeGreaterThan(10);
  expect(item.type).toBe(type);
}

describe.each(ROUTES)('/v1/%s/{kind}/{id}', (route) => {
  it.each([
    ['an unknown kind, a valid id', `not-a-kind/x`, ['path', 'kind'], 'value_error.component_kind'],
    [
      'an unknown kind, an invalid id (the id cannot be judged without a kind)',
      `nope/..bad..`,
      ['path', 'kind'],
      'value_error.component_kind',
    ],
    ['an empty kind', `%20/express`, ['path', 'kind'], 'value_error.component_kind'],
    ['npm, an invalid name', `npm/.hidden`, ['path', 'id'], 'value_error.component_name'],
    ['github, an id without a repository', `github/expressjs`, ['path', 'id'], 'value_error.component_name'],
    ['pypi, an invalid name', `pypi/-bad-`, ['path', 'id'], 'value_error.component_name'],
    ['docker, an invalid reference', `docker/UPPER:CASE:TAG`, ['path', 'id'], 'value_error.component_name'],
    ['a kind and no id', `npm`, ['path', 'id'], 'missing'],
    ['a kind, a slash and no id', `npm/`, ['path', 'id'], 'missing'],
  ])('422 for %s', async (_what, rest, loc, type) => {
    expectSpec422(await get<ValidationAnswer>(`/v1/${route}/${rest}`), loc, type);
  });

  it('answers 200 JSON for a valid component Tended holds nothing for: not observed, never "gone", and no score', async () => {
    const r = await get<FactAnswer>(`/v1/${route}/npm/express`);
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.link).toMatch(/rel="license"/);
    expect(r.body).toMatchObject({ purl: ['express', 'pkg:npm/express'], kind: 'npm', license: 'CC-BY-4.0' });
    expect(r.body.note).toMatch(/not (observed|checked)/);
    expect(JSON.stringify(r.body)).not.toMatch(/"[^"]*score[^"]*"\s*:\s*-?\d/i);
  });

  it('takes ids with "/" as sent or as %2F', async () => {
    for (const path of [
      `/v1/${route}/github/expressjs/express`,
      `/v1/${route}/github/expressjs%2Fexpress`,
      `/v1/${route}/npm/%40babel%2Fcore`,
      `/v1/${route}/npm/@babel/core`,
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
    }
    expect((await get<FactAnswer>(`/v1/${route}/npm/@babel/core`)).body.purl).toEqual([
      '@babel/core',
      'pkg:npm/%40babel/core',
    ]);
  });
});

describe('the fact routes over an observed record', () => {
  beforeEach(async () => {
    await observeOn('2026-01-15', ['iface', 'dep-alive', 'dep-gone']);
    await observeOn('2026-07-01', ['iface', 'dep-alive', 'dep-gone']);
  });

  it('trust_score: the dated facts, their age and the chain proof, and says no score is computed', async () => {
    const { body } = await get<TrustFacts>('/v1/trust_score/npm/iface');
    expect(body).toMatchObject({
      state: 'alive',
      observation_date: '2026-07-01',
      censoring_status: 'observed-on-date',
      score_computed: false,
      evidence_age_days: 0,
      observations_count: 2,
      first_observed: '2026-01-15',
      state_changes: 0,
      adoption: null,
    });
    expect(body.note).toMatch(/computes no score/);
    expect(body.chain).toMatchObject({ leaf_index: body.leaf_index, tree_size: 6 });
    expect(body.chain!.checkpoint).toMatch(/^test\.tended\.local\/log\n6\n/);
    expect(Object.entries(body).filter(([k, v]) => /score/i.test(k) && typeof v === 'number')).toEqual([]);
  });

  it('schema_history: what the registry declared on each observation date, and each change dated to the read that first saw it', async () => {
    const { body } = await get<SchemaHistory>('/v1/schema_history/npm/iface');
    expect(body.read_for_kind).toBe(true);
    expect(body.history).toEqual([
      expect.objectContaining({
        observation_date: '2026-01-15',
        latest_version: '1.0.0',
        interface: { license: 'MIT', engines: { node: '>=18' }, has_exports: false, has_types: true, deprecated: null },
      }),
      expect.objectContaining({
        observation_date: '2026-07-01',
        latest_version: '2.0.0',
        interface: {
          license: 'Apache-2.0',
          engines: { node: '>=20' },
          has_exports: true,
          has_types: true,
          deprecated: null,
        },
      }),
    ]);
    // A day's changes come in the order its leaf holds the fields (RFC 8785: sorted by name).
    expect(body.changes.map((c) => [c.observed, c.field, c.from, c.to])).toEqual([
      ['2026-07-01', 'engines', { node: '>=18' }, { node: '>=20' }],
      ['2026-07-01', 'has_exports', false, true],
      ['2026-07-01', 'license', 'MIT', 'Apache-2.0'],
    ]);
    const github = (await get<SchemaHistory>('/v1/schema_history/github/expressjs/express')).body;
    expect(github).toMatchObject({ read_for_kind: false, history: [], changes: [] });
    expect(github.note).toMatch(/npm packages only/);
  });

  it('dependency_risk: the held state of each direct dependency, one dated result each, with counts per state', async () => {
    const { body } = await get<DependencyRisk>('/v1/dependency_risk/npm/iface');
    expect(body.read_from).toMatchObject({ observation_date: '2026-07-01', latest_version: '2.0.0' });
    expect(body.dependencies_count).toBe(3);
    expect(body.dependencies.map((d) => [d.name, d.state, d.observation_date, d.censoring_status])).toEqual([
      ['dep-alive', 'alive', '2026-07-01', 'observed-on-date'],
      ['dep-gone', 'deleted', '2026-07-01', 'observed-on-date'],
      ['dep-unwatched', 'not_observed', null, 'not-observed-at-date'],
    ]);
    expect(body.states).toEqual({ alive: 1, deleted: 1, not_observed: 1 });
    expect(body.note).toMatch(/computes no score/);
  });
});

describe('schema_history over a package whose latest version is deprecated, then relicensed', () => {
  beforeEach(async () => {
    // Observed before, after the deprecation, again with nothing new, then after the relicensing.
    for (const date of ['2026-01-15', '2026-04-01', '2026-05-10', '2026-07-01']) await observeOn(date, ['sunset']);
  });

  it('dates each change to the observation that first read it, once, and keeps the rows in between', async () => {
    const { status, body } = await get<NpmSchemaHistory>('/v1/schema_history/npm/sunset');
    expect(status).toBe(200);
    expect(
      body.history.map((r) => [r.observation_date, r.latest_version, r.interface.deprecated, r.interface.license]),
    ).toEqual([
      ['2026-01-15', '3.0.0', null, 'MIT'],
      ['2026-04-01', '3.0.0', 'Use sunrise instead.', 'MIT'],
      ['2026-05-10', '3.0.0', 'Use sunrise instead.', 'MIT'],
      ['2026-07-01', '3.0.0', 'Use sunrise instead.', 'ISC'],
    ]);
    // Not the dates the registry changed (1 March, 15 June): Tended dates a change to the read that saw it.
    expect(body.changes.map((c) => [c.observed, c.field, c.from, c.to])).toEqual([
      ['2026-04-01', 'deprecated', null, 'Use sunrise instead.'],
      ['2026-07-01', 'license', 'MIT', 'ISC'],
    ]);
    // Each change points at the leaf of that observation.
    for (const change of body.changes) {
      expect(change.leaf_index).toBe(body.history.find((r) => r.observation_date === change.observed)!.leaf_index);
    }
  });
});
