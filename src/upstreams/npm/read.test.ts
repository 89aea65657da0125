import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { NpmPhase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';
const pkg = (extra: Omit<NpmPhase, 'from'>): NpmPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, NpmPhase[]> = {
  'npm:alive': pkg({
    versions: { '1.0.0': '2025-01-01T10:00:00.000Z', '1.1.0': '2026-01-20T10:00:00.000Z' },
    repository: 'git+https://github.com/acme/alive.git',
  }),
  'npm:dormant': pkg({ versions: { '1.0.0': '2025-06-01T10:00:00.000Z' } }),
  'npm:abandoned': pkg({ versions: { '1.0.0': '2024-01-01T10:00:00.000Z' } }),
  // time keeps the entry of an unpublished version; it must not count as a publish.
  'npm:removed-trap': pkg({
    versions: { '1.2.0': '2023-05-01T09:00:00.000Z' },
    removed_versions: { '1.2.9': '2026-02-01T09:00:00.000Z' },
  }),
  'npm:deprecated': pkg({
    versions: { '1.0.0': '2026-02-01T00:00:00.000Z' },
    deprecated: 'Use String.prototype.padStart()',
  }),
  'npm:@scope/pkg': pkg({ versions: { '2.0.0': '2025-12-24T00:00:00.000Z' } }),
  'npm:unpublished': pkg({ fail: 'unpublished', versions: { '1.0.0': '2020-09-25T09:18:36.552Z' } }),
  'npm:holding': pkg({ fail: 'security_holding' }),
  'npm:gone': pkg({ fail: 'not_found' }),
  'npm:limited': pkg({ fail: 'rate_limit_429' }),
  'npm:limited-403': pkg({ fail: 'rate_limit_403' }),
  'npm:error': pkg({ fail: 'server_error', status: 503 }),
  'npm:unauthorized': pkg({ fail: 'unauthorized' }),
  'npm:hangs': pkg({ fail: 'timeout' }),
  'npm:resets': pkg({ fail: 'reset' }),
  'npm:malformed': pkg({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().npm.read({ kind: 'npm', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('npm reader against the simulator', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'alive',
      'alive',
      {
        http_status: 200,
        last_published: '2026-01-20T10:00:00.000Z',
        last_published_version: '1.1.0',
        latest_version: '1.1.0',
        repository_url: 'git+https://github.com/acme/alive.git',
      },
    ],
    ['dormant', 'dormant', { last_published: '2025-06-01T10:00:00.000Z' }],
    ['abandoned', 'abandoned', { last_published: '2024-01-01T10:00:00.000Z' }],
    ['removed-trap', 'abandoned', { last_published: '2023-05-01T09:00:00.000Z', versions: 1 }],
    ['deprecated', 'archived', { deprecated: 'Use String.prototype.padStart()', latest_version: '1.0.0' }],
    ['@scope/pkg', 'alive', { last_published: '2025-12-24T00:00:00.000Z' }],
    [
      'unpublished',
      'deleted',
      { http_status: 200, unpublished_at: expect.stringMatching(/^20\d\d-/), unpublished_versions: ['1.0.0'] },
    ],
    ['holding', 'deleted', { security_holding: true, latest_version: '0.0.1-security' }],
    ['gone', 'deleted', { http_status: 404, message: 'Not found' }],
    ['never-existed', 'deleted', { http_status: 404 }],
    ['limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited', retry_after: 30 }],
    ['limited-403', 'not_observed', { http_status: 403, unreachable: 'rate_limited', ratelimit_remaining: 0 }],
    ['error', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['unauthorized', 'not_observed', { http_status: 401, unreachable: 'unauthorized' }],
    ['hangs', 'not_observed', { unreachable: 'timeout' }],
    ['resets', 'not_observed', { unreachable: 'network' }],
    ['malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/packument/);
  });

  it('requests a scoped package as /@scope%2fname under the configured base path', async () => {
    const { reading } = await read('@scope/pkg');
    expect(reading.source).toBe(`${h.simulator.urls.npm}/@scope%2fpkg`);
    expect(h.simulator.requests.some((r) => r.path === '/npm/@scope%2fpkg')).toBe(true);
  });

  it('a second read of an unchanged packument is a 304 with the same facts', async () => {
    const first = await read('alive');
    const before = h.simulator.requests.length;
    const second = await read('alive');
    expect(h.simulator.requests.slice(before)).toEqual([
      { method: 'GET', path: '/npm/alive', status: 304, conditional: true },
    ]);
    expect(second.reading.signals).toEqual(first.reading.signals);
    expect(second.reading.evidence).toEqual({ ...first.reading.evidence, http_status: 304 });
  });
});
