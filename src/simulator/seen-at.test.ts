import { describe, expect, it } from 'vitest';
import { parseScenario } from './scenario.js';
import { type EolProduct, type GithubPhase, type NpmPhase, type PypiPhase } from './scenario-phases.js';
import { eolSeenAt, phaseSeenAt, type Moment } from './seen-at.js';

const at = (instant: string): Moment => ({ today: instant.slice(0, 10), nowSec: Date.parse(instant) / 1000 });

describe('what the simulator can say at a moment', () => {
  it('lists a version only once it is published, and drops a latest pointer at one still to come', () => {
    const phases: NpmPhase[] = [
      {
        from: '2025-01-01',
        versions: { '1.0.0': '2024-06-01T10:00:00Z', '1.1.0': '2025-02-10T12:00:00Z' },
        latest: '1.1.0',
      },
    ];
    expect(phaseSeenAt(phases, at('2025-01-15T08:00:00Z'))).toEqual({
      from: '2025-01-01',
      versions: { '1.0.0': '2024-06-01T10:00:00Z' },
    });
    expect(phaseSeenAt(phases, at('2025-02-10T12:00:00Z'))?.versions).toHaveProperty('1.1.0');
  });

  it('lists a PyPI file from its upload on, and a release once one of its files is up', () => {
    const phases: PypiPhase[] = [
      {
        from: '2025-01-01',
        releases: {
          '0.9': '2024-06-01T12:00:00Z',
          '1.0': '2025-02-10T12:00:00Z',
          '1.1': [{ upload_time: '2025-01-10T00:00:00Z' }, { upload_time: '2025-03-01T00:00:00Z' }],
          '2.0': [],
        },
      },
    ];
    expect(phaseSeenAt(phases, at('2025-01-15T08:00:00Z'))?.releases).toEqual({
      '0.9': '2024-06-01T12:00:00Z',
      '1.1': [{ upload_time: '2025-01-10T00:00:00Z' }],
      '2.0': [],
    });
  });

  it('puts a phase in force on its first day only once the push it names has happened', () => {
    const phases: GithubPhase[] = [
      { from: '2025-01-01', pushed_at: '2024-12-20T00:00:00Z' },
      { from: '2025-04-01', pushed_at: '2025-04-01T10:00:00Z', archived: true },
    ];
    expect(phaseSeenAt(phases, at('2025-04-01T08:00:00Z'))).toEqual(phases[0]);
    expect(phaseSeenAt(phases, at('2025-04-01T10:00:00Z'))).toEqual({ ...phases[1] });
    // Before the first phase's own push nothing is there yet: a 404, never a push from the future.
    expect(
      phaseSeenAt([{ from: '2025-01-01', pushed_at: '2025-01-10T00:00:00Z' }], at('2025-01-05T00:00:00Z')),
    ).toBeNull();
  });

  it('lists an endoflife release from its release date and a point release from its own', () => {
    const product: EolProduct = {
      phases: [
        {
          from: '2020-01-01',
          releases: [
            { name: '24', releaseDate: '2025-05-06', eolFrom: '2028-04-30' },
            { name: '12', releaseDate: '2023-06-10', eolFrom: '2026-06-10', latest: '12.9', latestDate: '2025-01-11' },
          ],
        },
      ],
    };
    expect(eolSeenAt(product, at('2025-01-05T00:00:00Z'))?.releases).toEqual([
      { name: '12', releaseDate: '2023-06-10', eolFrom: '2026-06-10', latest: undefined, latestDate: undefined },
    ]);
    expect(eolSeenAt(product, at('2025-06-01T00:00:00Z'))?.releases).toEqual(product.phases[0]!.releases);
  });

  it('keeps the demo scenario free of activity its phases would serve early', async () => {
    const { demoScenario } = await import('./demo.js');
    const scenario = parseScenario(demoScenario());
    for (const [key, phases] of Object.entries(scenario.components))
      for (const p of phases) {
        // A phase whose own instants come after its `from` would answer 404 (or the phase before) until they pass.
        const own = Object.entries(p).filter(([k, v]) => k !== 'from' && typeof v === 'string' && /T\d\d:/.test(v));
        for (const [field, value] of own)
          expect(String(value).slice(0, 10) <= p.from, `${key} ${p.from} ${field}`).toBe(true);
      }
  });
});
