import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { CargoPhase } from '../../simulator/scenario-phases.js';
import { CRATES_API_INTERVAL_MS } from './registry.js';
import { indexPath } from './read.js';

const TODAY = '2026-03-01';
const crate = (extra: Omit<CargoPhase, 'from'>): CargoPhase[] => [{ from: '2020-01-01', ...extra }];

const COMPONENTS: Record<string, CargoPhase[]> = {
  'cargo:alive': crate({ versions: { '1.0.0': '2025-01-01T00:00:00Z', '1.1.0': '2026-01-20T00:00:00Z' } }),
  'cargo:dormant': crate({ versions: { '0.3.0': '2025-06-01T00:00:00Z' } }),
  'cargo:abandoned': crate({ versions: { '0.1.0': '2022-06-01T00:00:00Z' } }),
  // The newest version was yanked: it dates nothing.
  'cargo:yank-trap': crate({
    versions: { '1.0.0': '2023-01-01T00:00:00Z', '1.0.1': '2026-02-01T00:00:00Z' },
    yanked: ['1.0.1'],
  }),
  'cargo:all-yanked': crate({ versions: { '0.1.0': '2025-01-01T00:00:00Z' }, yanked: ['0.1.0'] }),
  // Published before the index carried pubtime: the crates API dates the newest version.
  'cargo:old-lines': crate({ versions: { '2.0.0': '2025-12-01T00:00:00Z' }, no_pubtime: true }),
  'cargo:old-a': crate({ versions: { '1.0.0': '2025-12-01T00:00:00Z' }, no_pubtime: true }),
  'cargo:old-b': crate({ versions: { '1.0.0': '2025-12-01T00:00:00Z' }, no_pubtime: true }),
  'cargo:old-c': crate({ versions: { '1.0.0': '2025-12-01T00:00:00Z' }, no_pubtime: true }),
  'cargo:ab': crate({ versions: { '1.0.0': '2026-01-01T00:00:00Z' } }),
  'cargo:abc': crate({ versions: { '1.0.0': '2026-01-01T00:00:00Z' } }),
  'cargo:gone': crate({ fail: 'not_found' }),
  'cargo:limited': crate({ fail: 'rate_limit_429' }),
  'cargo:error': crate({ fail: 'server_error', status: 503 }),
  'cargo:hangs': crate({ fail: 'timeout' }),
  'cargo:resets': crate({ fail: 'reset' }),
  'cargo:malformed': crate({ fail: 'malformed' }),
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: { components: COMPONENTS }, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().cargo.read({ kind: 'cargo', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('crates reader against the simulated sparse index and API', () => {
  it.each<[string, State, Record<string, unknown>]>([
    ['alive', 'alive', { http_status: 200, versions: 2, latest_version: '1.1.0', published: '2026-01-20T00:00:00Z' }],
    ['dormant', 'dormant', { last_published: '2025-06-01T00:00:00Z' }],
    ['abandoned', 'abandoned', { latest_version: '0.1.0' }],
    ['yank-trap', 'abandoned', { yanked: 1, latest_version: '1.0.0', published: '2023-01-01T00:00:00Z' }],
    ['all-yanked', 'archived', { yanked: 1, all_yanked: true }],
    ['old-lines', 'alive', { last_published: null, published: '2025-12-01T00:00:00Z' }],
    ['ab', 'alive', {}],
    ['abc', 'alive', {}],
    ['gone', 'deleted', { http_status: 404 }],
    ['never-existed', 'deleted', { http_status: 404 }],
    ['limited', 'not_observed', { http_status: 429, unreachable: 'rate_limited' }],
    ['error', 'not_observed', { http_status: 503, unreachable: 'server_error' }],
    ['hangs', 'not_observed', { unreachable: 'timeout' }],
    ['resets', 'not_observed', { unreachable: 'network' }],
    ['malformed', 'not_observed', { unreachable: 'unparsable' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/crates\.io/);
  });

  it('names index files as cargo does, asks OSV for each crate the index offers, and the API only for one it gives no time for', async () => {
    expect(['a', 'ab', 'abc', 'serde'].map(indexPath)).toEqual(['1/a', '2/ab', '3/a/abc', 'se/rd/serde']);
    const before = h.simulator.requests.length;
    await read('alive');
    await read('old-lines');
    expect(h.simulator.requests.slice(before).map((r) => r.path)).toEqual([
      '/cratesindex/al/iv/alive',
      '/osv/v1/query',
      '/cratesindex/ol/d-/old-lines',
      '/osv/v1/query',
      '/crates/api/v1/crates/old-lines/2.0.0',
    ]);
    // OSV is asked only about a crate the index offers: a deleted or all-yanked one declares nothing more.
    const next = h.simulator.requests.length;
    await read('gone');
    await read('all-yanked');
    expect(h.simulator.requests.slice(next).map((r) => r.path)).toEqual([
      '/cratesindex/go/ne/gone',
      '/cratesindex/al/l-/all-yanked',
    ]);
  });

  it('keeps to crates.io API etiquette: one request a second, however many reads ask at once', async () => {
    const sources = h.newSources();
    const started = Date.now();
    const readings = await Promise.all(
      ['old-a', 'old-b', 'old-c'].map((id) => sources.cargo.read({ kind: 'cargo', id }, TODAY)),
    );
    // Three API requests: the second waits a second after the first, the third a second more.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * CRATES_API_INTERVAL_MS - 50);
    for (const r of readings) expect(classify(r.signals, TODAY)).toBe('alive');
  });
});
