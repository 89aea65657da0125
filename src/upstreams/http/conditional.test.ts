/**
 * Conditional requests across every reader: the second daily pass over unchanged components is
 * answered 304 by the simulator and yields the same facts and states; a component that changed
 * in between is read in full.
 */
import { describe, expect, it } from 'vitest';
import { normaliseComponent } from '../../domain/component.js';
import { classify } from '../../domain/state.js';
import { startHarness } from '../../simulator/harness.js';
import type { Scenario } from '../../simulator/scenario.js';

const TODAY = '2026-03-01';
/**
 * Nothing here hangs, and every assertion counts requests or compares facts, so a read must never
 * time out: the harness's 300 ms (meant for its hang faults) is missed on a loaded machine.
 */
const TIMEOUT_MS = 10_000;

const scenario: Scenario = {
  components: {
    'github:acme/a': [{ from: '2020-01-01', pushed_at: '2026-01-01T00:00:00Z' }],
    'github:acme/b': [{ from: '2020-01-01', pushed_at: '2025-07-01T00:00:00Z', archived: true }],
    'npm:a': [{ from: '2020-01-01', versions: { '1.0.0': '2025-08-01T00:00:00.000Z' } }],
    'npm:@s/b': [{ from: '2020-01-01', versions: { '1.0.0': '2024-08-01T00:00:00.000Z' }, deprecated: 'gone' }],
    'pypi:a': [{ from: '2020-01-01', releases: { '1.0': '2026-02-01T00:00:00Z' } }],
    'docker:node:22': [{ from: '2020-01-01', tag_last_pushed: '2026-02-01T00:00:00Z' }],
    'docker:acme/x:1': [{ from: '2020-01-01', tag_last_pushed: '2025-01-01T00:00:00Z' }],
  },
  endoflife: { nodejs: { phases: [{ from: '2020-01-01', releases: [{ name: '22', eolFrom: '2027-04-30' }] }] } },
};
const refs = Object.keys(scenario.components).map((k) =>
  normaliseComponent(k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)),
);

describe('conditional requests', () => {
  it('a second pass over unchanged components is all 304s with the same facts', async () => {
    const h = await startHarness({ scenario, today: TODAY, timeoutMs: TIMEOUT_MS });
    try {
      // A new set of readers each pass, as the observer's passes would be; only the cache is shared.
      const pass = () => {
        const sources = h.newSources();
        return Promise.all(refs.map((ref) => sources[ref.kind].read(ref, TODAY)));
      };
      const first = await pass();
      expect(h.simulator.requests.every((r) => !r.conditional && r.status === 200)).toBe(true);
      const before = h.simulator.requests.length;
      const second = await pass();
      const again = h.simulator.requests.slice(before);
      expect(again.length).toBe(before);
      expect(again.every((r) => r.conditional && r.status === 304)).toBe(true);
      second.forEach((r, i) => {
        expect(r.signals).toEqual(first[i]!.signals);
        expect(classify(r.signals, TODAY)).toBe(classify(first[i]!.signals, TODAY));
        expect(r.source).toBe(first[i]!.source);
        const strip = (e: Record<string, unknown>) =>
          JSON.parse(
            JSON.stringify(e).replace(/"(http_status|commits_http_status)":(?:200|304)/g, '"$1":"x"'),
          ) as unknown;
        expect(strip(r.evidence)).toEqual(strip(first[i]!.evidence));
      });
    } finally {
      await h.close();
    }
  });

  it('a component that changed is read in full and its new facts replace the cached ones', async () => {
    const h = await startHarness({ scenario, today: TODAY, timeoutMs: TIMEOUT_MS });
    try {
      const ref = { kind: 'npm', id: 'a' } as const;
      await h.newSources().npm.read(ref, TODAY);
      h.simulator.setScenario({
        ...scenario,
        components: {
          ...scenario.components,
          'npm:a': [
            {
              from: '2020-01-01',
              versions: { '1.0.0': '2025-08-01T00:00:00.000Z', '1.1.0': '2026-02-27T00:00:00.000Z' },
            },
          ],
        },
      });
      const before = h.simulator.requests.length;
      const changed = await h.newSources().npm.read(ref, TODAY);
      expect(h.simulator.requests.slice(before)).toEqual([
        { method: 'GET', path: '/npm/a', status: 200, conditional: true },
      ]);
      expect(changed.evidence['last_published']).toBe('2026-02-27T00:00:00.000Z');
      const third = await h.newSources().npm.read(ref, TODAY);
      expect(h.simulator.requests.at(-1)?.status).toBe(304);
      expect(third.evidence['last_published']).toBe('2026-02-27T00:00:00.000Z');
    } finally {
      await h.close();
    }
  });

  it('an error answer is never cached: a deletion is read afresh each time', async () => {
    const h = await startHarness({
      scenario: { components: { 'npm:gone': [{ from: '2020-01-01', fail: 'not_found' }] } },
      today: TODAY,
      timeoutMs: TIMEOUT_MS,
    });
    try {
      await h.sources.npm.read({ kind: 'npm', id: 'gone' }, TODAY);
      await h.sources.npm.read({ kind: 'npm', id: 'gone' }, TODAY);
      expect(h.simulator.requests.map((r) => [r.status, r.conditional])).toEqual([
        [404, false],
        [404, false],
      ]);
      expect(h.cache.size).toBe(0);
    } finally {
      await h.close();
    }
  });
});
