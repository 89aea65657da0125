import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComponentRef } from '../src/domain/component.js';
import { stateMutations } from '../src/domain/series.js';
import { entityResult } from '../src/operations/entity-answer.js';
import { observeNamed } from '../src/operations/observe.js';
import { startHarness } from '../src/simulator/harness.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { rustsecOsvRecord } from './support/rustsec-osv.js';

/**
 * RustSec's "unmaintained" advisories, read through the simulated OSV API with each crate's usual
 * read and recorded on both store backends (DESIGN §8e, docs/methodology.md). The advisories are
 * real ones vendored from RustSec's advisory-db (test/fixtures/rustsec/SOURCE.md), served as
 * RustSec's OSV export publishes them.
 */
const BEFORE = '2020-04-20';
const TODAY = '2026-03-15';
const recent = { '1.0.0': '2025-06-01T00:00:00Z', '1.1.0': '2026-02-01T00:00:00Z' };
const advisories = (...ids: string[]) => ids.map(rustsecOsvRecord);

const scenario = parseScenario({
  components: {
    // Alive by age before RustSec's advisory (published 2020-05-02), archived from its publication on.
    'cargo:failure': [
      { from: '2019-01-01', versions: { '0.1.7': '2020-02-28T00:00:00Z' } },
      { from: '2020-05-02', advisories: advisories('RUSTSEC-2020-0036') },
    ],
    // A release this year: the declaration beats the age. Its advisory names socket2 in prose only.
    'cargo:net2': [{ from: '2019-01-01', versions: recent, advisories: advisories('RUSTSEC-2020-0016') }],
    // Withdrawn advisories declare nothing; markdown's was also lifted from 1.0.0-alpha.1 on.
    'cargo:directories': [{ from: '2019-01-01', versions: recent, advisories: advisories('RUSTSEC-2020-0054') }],
    'cargo:humantime': [{ from: '2019-01-01', versions: recent, advisories: advisories('RUSTSEC-2025-0014') }],
    'cargo:markdown': [{ from: '2019-01-01', versions: recent, advisories: advisories('RUSTSEC-2022-0044') }],
    // A vulnerability is no maintenance declaration.
    'cargo:smallvec': [{ from: '2019-01-01', versions: recent, advisories: advisories('RUSTSEC-2021-0003') }],
    'cargo:clean': [{ from: '2019-01-01', versions: recent }],
    // OSV failing: without its answer "archived" cannot be ruled out, so nothing is asserted.
    'cargo:osv-limited': [{ from: '2019-01-01', versions: recent, osv_fail: 'rate_limit_429' }],
    'cargo:osv-error': [{ from: '2019-01-01', versions: recent, osv_fail: 'server_error', status: 503 }],
    'cargo:osv-malformed': [{ from: '2019-01-01', versions: recent, osv_fail: 'malformed' }],
    'cargo:osv-missing': [{ from: '2019-01-01', versions: recent, osv_fail: 'not_found' }],
    'cargo:osv-hangs': [{ from: '2019-01-01', versions: recent, osv_fail: 'timeout' }],
    'cargo:osv-resets': [{ from: '2019-01-01', versions: recent, osv_fail: 'reset' }],
  },
});

const crate = (id: string): ComponentRef => ({ kind: 'cargo', id });

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('RustSec advisories through OSV, recorded on %s', (_backend, open) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(async () => {
    await t.dispose();
  });

  async function observeOn(day: string, ids: string[]) {
    const harness = await startHarness({ scenario, today: day });
    try {
      const deps = recordDeps(t.store, `${day}T12:00:00Z`);
      if (day === BEFORE) await t.store.initialiseLog(deps.notary.seal);
      for (const id of ids) await observeNamed({ ...deps, sources: harness.newSources() }, [crate(id)], 1);
    } finally {
      await harness.close();
    }
  }

  it('dates an unmaintained advisory as a declaration: archived from the first read after it is published', async () => {
    await observeOn(BEFORE, ['failure']);
    await observeOn(
      TODAY,
      Object.keys(scenario.components).map((k) => k.slice('cargo:'.length)),
    );
    const failure = await t.store.observationsOf(crate('failure'));
    expect(failure.map((o) => [o.observation_date, o.state])).toEqual([
      [BEFORE, 'alive'],
      [TODAY, 'archived'],
    ]);
    expect(failure[1]!.source).toMatch(/\/osv\/v1\/vulns\/RUSTSEC-2020-0036$/);
    expect(failure[1]!.evidence).toMatchObject({
      archived_because: 'a RustSec advisory declares the crate unmaintained',
      declaration: {
        advisory: 'RUSTSEC-2020-0036',
        published: '2020-05-02T12:00:00Z',
        modified: '2024-02-10T15:57:43Z',
        url: 'https://rustsec.org/advisories/RUSTSEC-2020-0036.html',
        summary: 'failure is officially deprecated/unmaintained',
      },
    });
    const [change] = stateMutations(failure);
    expect(change).toMatchObject({
      from: 'alive',
      to: 'archived',
      observed: TODAY,
      interval: { after: BEFORE, on_or_before: TODAY },
    });
  }, 60_000);

  it.each([
    ['net2', 'archived', { declaration: { advisory: 'RUSTSEC-2020-0016', published: '2020-05-01T12:00:00Z' } }],
    ['directories', 'alive', { withdrawn_advisories: [{ advisory: 'RUSTSEC-2020-0054' }] }],
    ['humantime', 'alive', { withdrawn_advisories: [{ advisory: 'RUSTSEC-2025-0014' }] }],
    ['markdown', 'alive', { withdrawn_advisories: [{ advisory: 'RUSTSEC-2022-0044' }] }],
    ['smallvec', 'alive', { osv_advisories: 1 }],
    ['clean', 'alive', { osv_advisories: 0 }],
    ['osv-limited', 'not_observed', { osv_http_status: 429, unreachable: 'rate_limited' }],
    ['osv-error', 'not_observed', { osv_http_status: 503, unreachable: 'server_error' }],
    ['osv-malformed', 'not_observed', { unreachable: 'unparsable' }],
    ['osv-missing', 'not_observed', { osv_http_status: 404, unreachable: 'unparsable' }],
    ['osv-hangs', 'not_observed', { unreachable: 'timeout' }],
    ['osv-resets', 'not_observed', { unreachable: 'network' }],
  ])('%s → %s', async (id, state, evidence) => {
    const [o] = (await t.store.observationsOf(crate(id))).filter((x) => x.observation_date === TODAY);
    expect(o?.state).toBe(state);
    expect(o?.evidence).toMatchObject(evidence);
    // The crates index was read and stands in the evidence either way.
    expect(o?.evidence).toMatchObject({ http_status: 200, latest_version: '1.1.0' });
    if (state !== 'archived') expect(o?.evidence).not.toHaveProperty('declaration');
  });

  it('answers with the advisory as evidence and no successor: OSV names no structured alternative', async () => {
    const answer = entityResult(crate('net2'), await t.store.observationsOf(crate('net2')), null, TODAY);
    expect(answer).toMatchObject({ state: 'archived', observation_date: TODAY });
    expect(answer).not.toHaveProperty('successor');
  });
});
