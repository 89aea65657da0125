import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../simulator/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    today: '2026-03-01',
    scenario: {
      components: {
        'npm:express': [{ from: '2020-01-01', versions: { '5.0.0': '2025-01-01T00:00:00.000Z' }, dependents: 1234 }],
        'npm:@babel/core': [{ from: '2020-01-01', versions: { '7.0.0': '2025-01-01T00:00:00.000Z' }, dependents: 0 }],
        'npm:unindexed': [{ from: '2020-01-01', versions: { '1.0.0': '2025-01-01T00:00:00.000Z' } }],
        'npm:limited': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'rate_limit_429' }],
        'npm:broken': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'server_error' }],
        'npm:hangs': [{ from: '2020-01-01', dependents: 5, dependents_fail: 'timeout' }],
      },
    },
  });
});
afterAll(() => h.close());

const read = (id: string, kind: 'npm' | 'pypi' = 'npm') => h.newSources().dependents.read({ kind, id });

describe('dependents reader (ecosyste.ms packages API) against the simulator', () => {
  it('reads dependent_packages_count and names the source', async () => {
    const r = await read('express');
    expect(r.dependents).toBe(1234);
    expect(r.source).toBe(`${h.simulator.urls.dependents}/api/v1/registries/npmjs.org/packages/express`);
    expect(r.evidence).toMatchObject({
      http_status: 200,
      registry: 'npmjs.org',
      dependent_packages_count: 1234,
      dependent_repos_count: 3702,
    });
    expect(r.method).toMatch(/dependent_packages_count/);
  });

  it('encodes a scoped name; zero is a count', async () => {
    const r = await read('@babel/core');
    expect(r.dependents).toBe(0);
    expect(r.source).toBe(`${h.simulator.urls.dependents}/api/v1/registries/npmjs.org/packages/%40babel%2Fcore`);
  });

  it.each([
    ['unindexed', { http_status: 404, not_indexed: true }],
    ['limited', { http_status: 429, unreachable: 'rate_limited' }],
    ['broken', { http_status: 500, unreachable: 'server_error' }],
    ['hangs', { unreachable: 'timeout' }],
  ])('%s → null (unknown, never zero)', async (id, evidence) => {
    const r = await read(id);
    expect(r.dependents).toBeNull();
    expect(r.evidence).toMatchObject(evidence);
  });

  it('does not ask about other kinds', async () => {
    const before = h.simulator.requests.length;
    const r = await read('requests', 'pypi');
    expect(r.dependents).toBeNull();
    expect(r.evidence['not_read']).toMatch(/npm/);
    expect(h.simulator.requests.length).toBe(before);
  });

  it('a second read is a 304 with the same count', async () => {
    const sources = h.newSources();
    const first = await sources.dependents.read({ kind: 'npm', id: 'express' });
    const before = h.simulator.requests.length;
    const second = await sources.dependents.read({ kind: 'npm', id: 'express' });
    expect(h.simulator.requests.slice(before).map((x) => x.status)).toEqual([304]);
    expect(second.dependents).toBe(first.dependents);
  });
});
