import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, type State } from '../../domain/state.js';
import { startHarness, type Harness } from '../../simulator/harness.js';
import type { Scenario } from '../../simulator/scenario.js';

const TODAY = '2026-03-01';
const SCENARIO: Scenario = {
  components: {},
  endoflife: {
    debian: {
      phases: [
        {
          from: '2020-01-01',
          releases: [
            { name: '12', codename: 'Bookworm', eolFrom: '2026-06-10', latest: '12.9', latestDate: '2026-01-11' },
            {
              name: '11',
              codename: 'Bullseye',
              eolFrom: '2024-08-14',
              eoesFrom: '2026-08-31',
              latest: '11.11',
              latestDate: '2024-08-31',
            },
            { name: '10', codename: 'Buster', eolFrom: '2022-09-10', latest: '10.13', latestDate: '2022-09-10' },
          ],
        },
      ],
    },
    rhel: {
      phases: [
        {
          from: '2020-01-01',
          releases: [{ name: '8', eolFrom: '2029-05-31', latest: '8.10', latestDate: '2025-05-20' }],
        },
      ],
    },
    'alpine-linux': {
      aliases: ['alpine'],
      phases: [{ from: '2020-01-01', releases: [{ name: '3.19', eolFrom: '2025-11-01', latest: '3.19.4' }] }],
    },
    ubuntu: { phases: [{ from: '2020-01-01', fail: 'server_error', status: 502 }] },
  },
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scenario: SCENARIO, today: TODAY });
});
afterAll(() => h.close());

async function read(id: string) {
  const reading = await h.newSources().distro.read({ kind: 'distro', id }, TODAY);
  return { reading, state: classify(reading.signals, TODAY) };
}

describe('distribution releases against the simulated end-of-life listing', () => {
  it.each<[string, State, Record<string, unknown>]>([
    [
      'debian/12',
      'alive',
      { release: '12', eol: false, latest: '12.9', latest_date: '2026-01-11', eol_from: '2026-06-10' },
    ],
    // Past security support: eol, even while paid or LTS support goes on (recorded beside).
    ['debian/11', 'eol', { eol: true, supported: false, is_maintained: true, eoes_from: '2026-08-31' }],
    ['debian/10', 'eol', { eol: true, is_maintained: false }],
    // Issue 27 item 7: supported to 2029, its latest point release 285 days old. It read dormant
    // (and abandoned past 365 days) while the listing said it was supported; DESIGN §3 says alive.
    ['rhel/8', 'alive', { release: '8', supported: true, latest: '8.10', latest_date: '2025-05-20' }],
    ['alpine-linux/3.19', 'eol', { eol: true, latest_date: null }],
    [
      'debian/7',
      'not_observed',
      { unreachable: 'not_listed', not_listed: 'endoflife.date lists no release 7 of debian' },
    ],
    ['fedora/40', 'not_observed', { unreachable: 'not_listed', not_listed: 'endoflife.date lists no product fedora' }],
    ['ubuntu/22.04', 'not_observed', { http_status: 502, unreachable: 'server_error' }],
  ])('%s → %s', async (id, state, evidence) => {
    const { reading } = await read(id);
    expect(classify(reading.signals, TODAY)).toBe(state);
    expect(reading.evidence).toMatchObject(evidence);
    expect(reading.method).toMatch(/endoflife\.date/);
  });

  it('a supported release whose listing gives no latest date is alive on its support, not on an age', async () => {
    const sim = await startHarness({
      scenario: {
        components: {},
        endoflife: { debian: { phases: [{ from: '2020-01-01', releases: [{ name: '12' }] }] } },
      },
      today: TODAY,
    });
    try {
      const reading = await sim.newSources().distro.read({ kind: 'distro', id: 'debian/12' }, TODAY);
      expect(classify(reading.signals, TODAY)).toBe('alive');
      expect(reading.evidence).toMatchObject({ supported: true, is_maintained: true, latest_date: null });
    } finally {
      await sim.close();
    }
  });
});
