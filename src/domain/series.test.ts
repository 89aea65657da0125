import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar.js';
import type { Observation } from './observation.js';
import { seriesRows, seriesView, seriesWithin, stateChangeCount, stateMutations, type Mutation } from './series.js';
import { ASSERTED_STATES, STATES, isAsserted, type State } from './state.js';

function obs(date: string, state: State, leaf: number, corrects: number | null = null): Observation {
  return {
    component: { kind: 'npm', id: 'left-pad' },
    observed_at: `${date}T06:00:00Z`,
    observation_date: date,
    state,
    source: 'https://registry.npmjs.org/left-pad',
    evidence: {},
    method: 'test',
    corrects,
    leaf_index: leaf,
  };
}

/** A series read one date apart from 2025-01-01, one observation per state given. */
function daily(...states: State[]): Observation[] {
  return states.map((s, i) => obs(addDays('2025-01-01', i), s, i + 1));
}

describe('stateMutations', () => {
  it.each<[string, State[], [string, string, string, string][]]>([
    ['no observations', [], []],
    ['one state throughout', ['alive', 'alive', 'alive'], []],
    ['alive then dormant', ['alive', 'dormant'], [['alive', 'dormant', '2025-01-02', '2025-01-01']]],
    // A failed read is a gap, not a state: it neither ends nor starts one.
    ['alive, not_observed, alive', ['alive', 'not_observed', 'alive'], []],
    [
      'alive, not_observed, dormant',
      ['alive', 'not_observed', 'dormant'],
      [['alive', 'dormant', '2025-01-03', '2025-01-01']],
    ],
    [
      'a run of failed reads',
      ['alive', 'not_observed', 'not_observed', 'dormant'],
      [['alive', 'dormant', '2025-01-04', '2025-01-01']],
    ],
    ['only failed reads', ['not_observed', 'not_observed'], []],
    ['a failed read first', ['not_observed', 'alive', 'dormant'], [['alive', 'dormant', '2025-01-03', '2025-01-02']]],
    [
      'dated to the first read of the new state, after the last read of the old',
      ['alive', 'alive', 'dormant', 'dormant', 'abandoned'],
      [
        ['alive', 'dormant', '2025-01-03', '2025-01-02'],
        ['dormant', 'abandoned', '2025-01-05', '2025-01-04'],
      ],
    ],
    [
      'back and forth counts every change',
      ['alive', 'dormant', 'alive', 'archived'],
      [
        ['alive', 'dormant', '2025-01-02', '2025-01-01'],
        ['dormant', 'alive', '2025-01-03', '2025-01-02'],
        ['alive', 'archived', '2025-01-04', '2025-01-03'],
      ],
    ],
  ])('%s', (_, states, expected) => {
    const mutations = stateMutations(daily(...states));
    expect(mutations.map((m) => [m.from, m.to, m.observed, m.interval.after])).toEqual(expected);
    for (const m of mutations) expect(m.interval.on_or_before).toBe(m.observed);
    expect(stateChangeCount(daily(...states))).toBe(expected.length);
  });

  it('carries the interval of an unobserved span and the leaf of the first new reading', () => {
    const series = [obs('2025-01-01', 'alive', 10), obs('2025-03-15', 'dormant', 20), obs('2025-03-16', 'dormant', 21)];
    expect(stateMutations(series)).toEqual<Mutation[]>([
      {
        from: 'alive',
        to: 'dormant',
        observed: '2025-03-15',
        leaf_index: 20,
        interval: { after: '2025-01-01', on_or_before: '2025-03-15' },
      },
    ]);
  });

  it('counts the corrected reading, not the original', () => {
    // 2025-01-02 read "deleted" by mistake; a correction re-read on 2025-02-01 says alive.
    const series = [...daily('alive', 'deleted', 'alive'), obs('2025-02-01', 'alive', 9, 2)];
    expect(stateChangeCount(series)).toBe(0);
    expect(stateChangeCount(daily('alive', 'deleted', 'alive'))).toBe(2);
  });
});

describe('seriesRows', () => {
  it('one row per date, ascending, marking corrected readings', () => {
    const series = [
      obs('2025-01-03', 'dormant', 3),
      obs('2025-01-01', 'alive', 1),
      obs('2025-01-02', 'deleted', 2),
      obs('2025-02-01', 'alive', 9, 2),
    ];
    expect(seriesRows(series)).toEqual([
      { observation_date: '2025-01-01', state: 'alive', leaf_index: 1, corrected: false },
      { observation_date: '2025-01-02', state: 'alive', leaf_index: 9, corrected: true },
      { observation_date: '2025-01-03', state: 'dormant', leaf_index: 3, corrected: false },
    ]);
  });
});

describe('seriesWithin / seriesView', () => {
  const series = daily('alive', 'alive', 'dormant', 'not_observed', 'abandoned');

  it.each<[string | null, number, number, string | null]>([
    ['2024-12-31', 0, 0, null],
    ['2025-01-01', 1, 0, '2025-01-01'],
    ['2025-01-02', 2, 0, '2025-01-02'],
    ['2025-01-03', 3, 1, '2025-01-03'],
    ['2025-01-04', 4, 1, '2025-01-04'],
    ['2025-01-05', 5, 2, '2025-01-05'],
    [null, 5, 2, '2025-01-05'],
  ])('up to %s: %i rows, %i changes, last %s', (asOf, rows, changes, last) => {
    const view = seriesView(series, asOf);
    expect(view.observation_count).toBe(rows);
    expect(view.rows).toHaveLength(rows);
    expect(view.state_changes).toBe(changes);
    expect(view.mutations).toHaveLength(changes);
    expect(view.first_observation_date).toBe(rows > 0 ? '2025-01-01' : null);
    expect(view.last_observation_date).toBe(last);
    expect(seriesWithin(series, asOf).every((o) => asOf === null || o.observation_date <= asOf)).toBe(true);
  });

  it('a correction of a date after as_of does not leak into the view', () => {
    const withFix = [...series, obs('2025-02-01', 'dormant', 99, 5)];
    expect(seriesRows(seriesWithin(withFix, '2025-01-04'))).toEqual(seriesRows(seriesWithin(series, '2025-01-04')));
  });

  it('a corrected view can be read again without losing the correction', () => {
    const withFix = [...series, obs('2025-02-01', 'dormant', 99, 5)];
    const within = seriesWithin(withFix, null);
    expect(seriesRows(within).at(-1)).toEqual({
      observation_date: '2025-01-05',
      state: 'dormant',
      leaf_index: 99,
      corrected: true,
    });
    expect(stateMutations(within)).toEqual(stateMutations(withFix));
  });
});

describe('properties', () => {
  const states = fc.array(fc.constantFrom(...STATES.filter((s) => s !== 'unknown-stale')), { maxLength: 40 });
  const gaps = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 40, maxLength: 40 });

  /** Builds a series with the given states on increasing dates. */
  function build(seq: State[], gap: number[]): Observation[] {
    let date = '2024-01-01';
    return seq.map((s, i) => {
      date = addDays(date, gap[i] ?? 1);
      return obs(date, s, i);
    });
  }

  it('the mutation count equals the number of adjacent differing asserted states', () => {
    fc.assert(
      fc.property(states, gaps, (seq, gap) => {
        const asserted = seq.filter(isAsserted);
        const expected = asserted.filter((s, i) => i > 0 && s !== asserted[i - 1]).length;
        expect(stateChangeCount(build(seq, gap))).toBe(expected);
      }),
    );
  });

  it('each mutation is between asserted states, dated on a read of the new state, inside its interval', () => {
    fc.assert(
      fc.property(states, gaps, (seq, gap) => {
        const series = build(seq, gap);
        const byDate = new Map(series.map((o) => [o.observation_date, o.state]));
        for (const m of stateMutations(series)) {
          expect(m.from).not.toBe(m.to);
          expect(ASSERTED_STATES).toContain(m.from);
          expect(ASSERTED_STATES).toContain(m.to);
          expect(byDate.get(m.observed)).toBe(m.to);
          expect(byDate.get(m.interval.after)).toBe(m.from);
          expect(m.interval.after < m.interval.on_or_before).toBe(true);
          // Only gaps lie strictly inside the interval: no asserted state was read there.
          for (const o of series) {
            if (o.observation_date > m.interval.after && o.observation_date < m.observed)
              expect(isAsserted(o.state)).toBe(false);
          }
        }
      }),
    );
  });

  it('nothing after as_of changes the series up to as_of', () => {
    fc.assert(
      fc.property(states, gaps, fc.integer({ min: 0, max: 40 }), (seq, gap, cut) => {
        const series = build(seq, gap);
        const asOf = series[cut]?.observation_date ?? '2030-01-01';
        const before = series.filter((o) => o.observation_date <= asOf);
        expect(seriesView(series, asOf)).toEqual(seriesView(before, asOf));
      }),
    );
  });
});
