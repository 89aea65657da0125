import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { ComposerPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const pkg = (extra: Omit<ComposerPhase, 'from'>): ComposerPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, ComposerPhase[]> = {
  'composer:acme/alive': pkg({
    versions: { 'v1.0.0': '2025-01-01T00:00:00+00:00', 'v1.1.0': '2026-01-20T00:00:00+00:00' },
  }),
  'composer:acme/dormant': pkg({ versions: { '2.0.0': '2025-06-01T00:00:00+00:00' } }),
  'composer:acme/abandoned-age': pkg({ versions: { '1.0.0': '2023-01-01T00:00:00+00:00' } }),
  'composer:acme/flagged': pkg({ versions: { '3.0.0': '2026-02-01T00:00:00+00:00' }, abandoned: 'acme/better' }),
  'composer:acme/flagged-bare': pkg({ versions: { '3.0.0': '2026-02-01T00:00:00+00:00' }, abandoned: true }),
  'composer:acme/dev-only': pkg({ versions: {} }),
  'composer:acme/gone': pkg({ fail: 'not_found' }),
  'composer:acme/limited': pkg({ fail: 'rate_limit_429' }),
  'composer:acme/error': pkg({ fail: 'server_error', status: 502 }),
  'composer:acme/hangs': pkg({ fail: 'timeout' }),
  'composer:acme/resets': pkg({ fail: 'reset' }),
  'composer:acme/malformed': pkg({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().composer.read({ kind: 'composer', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('Packagist reader against the simulated repo.packagist.org', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'acme/alive',
      'alive',
      {
        http_status: 200,
        versions: 2,
        latest_version: 'v1.1.0',
        last_published: '2026-01-20T00:00:00+00:00',
        abandoned: false,
      },
    ],
    ['acme/dormant', 'dormant', { last_published: '2025-06-01T00:00:00+00:00' }],
    ['acme/abandoned-age', 'abandoned', { latest_version: '1.0.0' }],
    // Packagist's own flag, on a package released last month: archived, with the suggested replacement.
    ['acme/flagged', 'archived', { abandoned: 'acme/better' }],
    ['acme/flagged-bare', 'archived', { abandoned: true }],
    // Only dev branches, no tagged release: no release age to tell.
    ['acme/dev-only', 'not_observed', { versions: 0, last_published: null }],
    ['acme/gone', 'deleted', { http_status: 404, message: '404 not found, no packages here' }],
    ['acme/never-existed', 'deleted', { http_status: 404 }],
    ['acme/limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited' }],
    ['acme/error', 'not_observed', { http_status: 502, unreachable: 'server_error' }],
    ['acme/hangs', 'not_observed', { unreachable: 'timeout' }],
    ['acme/resets', 'not_observed', { unreachable: 'network' }],
    ['acme/malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/Packagist/);
  });

  it('reads the minified p2 file under the configured base, and a second read is a 304', async () => {
    const first = await read('acme/alive');
    expect(first.reading.source).toBe(`${h.simulator.urls.packagist}/p2/acme/alive.json`);
    const before = h.simulator.requests.length;
    await read('acme/alive');
    expect(h.simulator.requests.slice(before)).toEqual([
      { method: 'GET', path: '/packagist/p2/acme/alive.json', status: 304, conditional: true },
    ]);
  });
});
