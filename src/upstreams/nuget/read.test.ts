import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { NugetPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const pkg = (extra: Omit<NugetPhase, 'from'>): NugetPhase[] => [{ from: '2020-01-01', ...extra }];
const two = { '1.0.0': '2025-01-01T00:00:00+00:00', '1.1.0': '2026-01-20T00:00:00+00:00' };

const COMPONENTS: Record<string, NugetPhase[]> = {
  'nuget:acme.alive': pkg({ versions: two }),
  'nuget:acme.dormant': pkg({ versions: { '2.0.0': '2025-06-01T00:00:00+00:00' } }),
  'nuget:acme.abandoned': pkg({ versions: { '1.0.0': '2022-06-01T00:00:00+00:00' } }),
  // The newest version is unlisted (published "1900"): the listed one before it dates the package.
  'nuget:acme.unlisted-latest': pkg({
    versions: { '1.0.0': '2024-01-01T00:00:00+00:00', '1.1.0': '2026-02-01T00:00:00+00:00' },
    unlisted: ['1.1.0'],
  }),
  'nuget:acme.all-unlisted': pkg({ versions: two, unlisted: ['1.0.0', '1.1.0'] }),
  'nuget:acme.legacy': pkg({ versions: two, deprecation: ['Legacy'] }),
  // nuget.org's deprecation names the package to move to (DESIGN §8e: the successor).
  'nuget:acme.legacy-moved': pkg({ versions: two, deprecation: ['Legacy'], alternate_package: 'Acme.Next' }),
  // Critical bugs in the latest version say nothing about upkeep.
  'nuget:acme.critical-bugs': pkg({ versions: two, deprecation: ['CriticalBugs'] }),
  'nuget:acme.all-deprecated': pkg({ versions: two, deprecated_all: true }),
  'nuget:acme.paged': pkg({ versions: two, paged: true }),
  'nuget:acme.gone': pkg({ fail: 'not_found' }),
  'nuget:acme.limited': pkg({ fail: 'rate_limit_429' }),
  'nuget:acme.error': pkg({ fail: 'server_error', status: 503 }),
  'nuget:acme.hangs': pkg({ fail: 'timeout' }),
  'nuget:acme.resets': pkg({ fail: 'reset' }),
  'nuget:acme.malformed': pkg({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().nuget.read({ kind: 'nuget', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('NuGet reader against the simulated registration API', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'acme.alive',
      'alive',
      { http_status: 200, versions: 2, listed: 2, latest_listed: '1.1.0', last_published: '2026-01-20T00:00:00+00:00' },
    ],
    ['acme.dormant', 'dormant', { last_published: '2025-06-01T00:00:00+00:00' }],
    ['acme.abandoned', 'abandoned', { latest_listed: '1.0.0' }],
    [
      'acme.unlisted-latest',
      'abandoned',
      { listed: 1, latest_listed: '1.0.0', last_published: '2024-01-01T00:00:00+00:00' },
    ],
    ['acme.all-unlisted', 'archived', { listed: 0, archived_because: 'no version is listed' }],
    [
      'acme.legacy',
      'archived',
      { deprecation: ['Legacy'], archived_because: 'the latest listed version is deprecated as Legacy' },
    ],
    ['acme.legacy-moved', 'archived', { deprecation: ['Legacy'], alternate_package: 'Acme.Next' }],
    ['acme.critical-bugs', 'alive', { deprecation: ['CriticalBugs'] }],
    ['acme.all-deprecated', 'archived', { all_listed_deprecated: true }],
    ['acme.paged', 'alive', { versions: 2, last_published: '2026-01-20T00:00:00+00:00' }],
    [
      'acme.gone',
      'deleted',
      {
        http_status: 404,
        message:
          '<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.</Message></Error>',
      },
    ],
    ['acme.never-existed', 'deleted', { http_status: 404 }],
    ['acme.limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited' }],
    ['acme.error', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['acme.hangs', 'not_observed', { unreachable: 'timeout' }],
    ['acme.resets', 'not_observed', { unreachable: 'network' }],
    ['acme.malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/NuGet/);
  });

  it('reads the index under the lower-cased id, and the page a paged index names', async () => {
    const before = h.simulator.requests.length;
    await read('acme.paged');
    expect(h.simulator.requests.slice(before).map((r) => r.path)).toEqual([
      '/nuget/v3/registration5-gz-semver2/acme.paged/index.json',
      '/nuget/v3/registration5-gz-semver2/acme.paged/page.json',
    ]);
  });
});
