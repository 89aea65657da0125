/**
 * Fault injection: components that are alive upstream, read through a simulator that replaces
 * 30% of its answers with faults (rate limits, 5xx, resets, hangs past the time-out). A fault
 * may cost an observation (not_observed); it must never make a death or any other state.
 */
import { describe, expect, it } from 'vitest';
import { addDays } from '../../domain/calendar.js';
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { classify, type State } from '../../domain/state.js';
import { startHarness } from '../../simulator/harness.js';
import type { Scenario } from '../../simulator/scenario.js';
import type { Phase } from '../../simulator/scenario-phases.js';

const TODAY = '2026-03-01';

function aliveScenario(): { scenario: Scenario; refs: ComponentRef[] } {
  const components: Record<string, Phase[]> = {};
  const recent = (i: number) => `${addDays(TODAY, -(i % 170))}T08:00:00Z`;
  for (let i = 0; i < 80; i++)
    components[`github:chaos-org/repo-${i}`] = [
      { from: '2020-01-01', created_at: '2019-01-01T00:00:00Z', pushed_at: recent(i), last_commit: recent(i) },
    ];
  for (let i = 0; i < 60; i++)
    components[`npm:${i % 4 === 0 ? `@chaos/pkg-${i}` : `chaos-pkg-${i}`}`] = [
      { from: '2020-01-01', versions: { '1.0.0': '2020-01-01T00:00:00.000Z', '1.1.0': recent(i) } },
    ];
  for (let i = 0; i < 50; i++)
    components[`pypi:chaos-py-${i}`] = [
      { from: '2020-01-01', releases: { '0.1': '2020-01-01T00:00:00Z', '0.2': recent(i) } },
    ];
  for (let i = 0; i < 50; i++) {
    const image = i % 2 === 0 ? `library/node:22.${i}-alpine3.21` : `chaos/app-${i}:1.${i}`;
    components[`docker:docker.io/${image}`] = [{ from: '2020-01-01', tag_last_pushed: recent(i) }];
  }
  const scenario: Scenario = {
    components,
    endoflife: {
      nodejs: {
        aliases: ['node'],
        phases: [{ from: '2020-01-01', releases: [{ name: '22', eolFrom: '2027-04-30' }] }],
      },
      'alpine-linux': { phases: [{ from: '2020-01-01', releases: [{ name: '3.21', eolFrom: '2026-11-01' }] }] },
    },
  };
  const refs = Object.keys(components).map((k) =>
    normaliseComponent(k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)),
  );
  return { scenario, refs };
}

describe('fault injection (chaos rate 0.3)', () => {
  it.each([42, 7])(
    '240 components alive upstream: none is read as deleted or any asserted state but alive (seed %i)',
    async (seed) => {
      const { scenario, refs } = aliveScenario();
      expect(refs.length).toBe(240);
      const h = await startHarness({ scenario, today: TODAY, chaos: { rate: 0.3, seed } });
      try {
        const readings = await Promise.all(refs.map((ref) => h.sources[ref.kind].read(ref, TODAY)));
        const states = readings.map((r) => classify(r.signals, TODAY));
        const counts: Partial<Record<State, number>> = {};
        for (const s of states) counts[s] = (counts[s] ?? 0) + 1;
        expect(Object.keys(counts).sort()).toEqual(['alive', 'not_observed']);
        expect(counts.alive).toBeGreaterThan(0);
        // Every failed read says why.
        const reasons = new Set(readings.filter((r) => r.signals.unreachable).map((r) => r.signals.unreachable));
        for (const reason of reasons)
          expect(['rate_limited', 'server_error', 'network', 'timeout', 'unparsable']).toContain(reason);
        expect(reasons.size).toBeGreaterThan(1);
        for (const r of readings.filter((x) => x.signals.unreachable))
          expect(r.evidence['unreachable']).toBe(r.signals.unreachable);
        // The faults really happened.
        const faults = h.simulator.requests.filter((r) => r.status !== 200 && r.status !== 301 && r.status !== 304);
        expect(faults.length).toBeGreaterThan(10);
      } finally {
        await h.close();
      }
    },
  );

  it('without chaos the same components are all alive', async () => {
    const { scenario, refs } = aliveScenario();
    // No faults, so no read may time out: the harness's 300 ms is missed on a loaded machine.
    const h = await startHarness({ scenario, today: TODAY, timeoutMs: 10_000 });
    try {
      const readings = await Promise.all(refs.map((ref) => h.sources[ref.kind].read(ref, TODAY)));
      expect(new Set(readings.map((r) => classify(r.signals, TODAY)))).toEqual(new Set(['alive']));
    } finally {
      await h.close();
    }
  });
});
