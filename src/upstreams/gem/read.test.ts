import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { GemPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const gem = (extra: Omit<GemPhase, 'from'>): GemPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, GemPhase[]> = {
  // The highest version is not the newest: a 1.x backport came last.
  'gem:alive': gem({ versions: { '2.0.0': '2025-06-01T00:00:00Z', '1.9.9': '2026-01-15T00:00:00Z' } }),
  'gem:dormant': gem({ versions: { '0.4.0': '2025-07-01T00:00:00Z' } }),
  'gem:abandoned': gem({ versions: { '1.0.0': '2021-01-01T00:00:00Z' } }),
  // A yanked version is not listed, so it dates nothing.
  'gem:yank-trap': gem({
    versions: { '1.0.0': '2023-01-01T00:00:00Z', '1.0.1': '2026-02-01T00:00:00Z' },
    yanked: ['1.0.1'],
  }),
  'gem:Mixed_Case': gem({ versions: { '3.0.0': '2026-02-20T00:00:00Z' } }),
  'gem:all-yanked': gem({ fail: 'all_yanked', versions: { '1.0.0': '2025-01-01T00:00:00Z' } }),
  'gem:gone': gem({ fail: 'not_found' }),
  'gem:limited': gem({ fail: 'rate_limit_429' }),
  'gem:error': gem({ fail: 'server_error', status: 503 }),
  'gem:hangs': gem({ fail: 'timeout' }),
  'gem:resets': gem({ fail: 'reset' }),
  'gem:malformed': gem({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().gem.read({ kind: 'gem', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('RubyGems reader against the simulated rubygems.org', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'alive',
      'alive',
      { http_status: 200, versions: 2, last_published: '2026-01-15T00:00:00Z', last_published_version: '1.9.9' },
    ],
    ['dormant', 'dormant', { last_published: '2025-07-01T00:00:00Z' }],
    ['abandoned', 'abandoned', { last_published_version: '1.0.0' }],
    ['yank-trap', 'abandoned', { versions: 1, last_published: '2023-01-01T00:00:00Z' }],
    ['Mixed_Case', 'alive', { last_published_version: '3.0.0' }],
    // rubygems.org is the only home of its names: no public version is a deletion, yanked or removed.
    [
      'all-yanked',
      'deleted',
      { http_status: 404, message: 'This rubygem could not be found.', gone: expect.stringMatching(/yanked/) },
    ],
    ['gone', 'deleted', { http_status: 404 }],
    ['never-existed', 'deleted', { http_status: 404 }],
    ['limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited', retry_after: 30 }],
    ['error', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['hangs', 'not_observed', { unreachable: 'timeout' }],
    ['resets', 'not_observed', { unreachable: 'network' }],
    ['malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/rubygems\.org/);
  });

  it('asks the versions route under the configured base, and a second read is a 304', async () => {
    const first = await read('dormant');
    expect(first.reading.source).toBe(`${h.simulator.urls.rubygems}/api/v1/versions/dormant.json`);
    const before = h.simulator.requests.length;
    const second = await read('dormant');
    expect(h.simulator.requests.slice(before)).toEqual([
      { method: 'GET', path: '/rubygems/api/v1/versions/dormant.json', status: 304, conditional: true },
    ]);
    expect(second.reading.signals).toEqual(first.reading.signals);
  });
});
