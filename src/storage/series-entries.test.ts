import { describe, expect, it } from 'vitest';
import type { SeriesEntry } from '../domain/observation.js';
import { isAsserted, STATES } from '../domain/state.js';
import { addDays } from '../domain/calendar.js';
import { assertedBefore, decodeEntries, encodeEntries, HeldSeries } from './series-entries.js';

/** The change feed's "from" worked out the long way: decode every reading, walk back from the leaf. */
function naive(series: SeriesEntry[], leaf: number): SeriesEntry | null | undefined {
  const at = series.findIndex((e) => e.leaf_index === leaf);
  if (at < 0) return undefined;
  for (let i = at - 1; i >= 0; i--) if (isAsserted(series[i]!.state)) return { ...series[i]!, corrects: null };
  return null;
}

describe('assertedBefore', () => {
  it('finds the same previous asserted reading as decoding the whole row, for every leaf of many series', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let s = 0; s < 200; s++) {
      const series: SeriesEntry[] = [];
      let leaf = next(50);
      let date = '2024-01-01';
      for (let i = 0, n = next(40); i < n; i++) {
        leaf += 1 + next(5_000);
        date = addDays(date, next(3));
        series.push({ leaf_index: leaf, observation_date: date, state: STATES[next(STATES.length)]!, corrects: null });
      }
      const { entries } = encodeEntries(series);
      expect(decodeEntries(entries, null)).toEqual(series);
      for (const e of series) expect(assertedBefore(entries, e.leaf_index)).toEqual(naive(series, e.leaf_index));
      // A leaf the row does not list: no answer rather than a wrong one.
      expect(assertedBefore(entries, leaf + 1)).toBeUndefined();
    }
  });

  it('skips not_observed and unknown-stale readings back to the last asserted one', () => {
    const series: SeriesEntry[] = [
      { leaf_index: 3, observation_date: '2025-01-01', state: 'alive', corrects: null },
      { leaf_index: 9, observation_date: '2025-01-02', state: 'not_observed', corrects: null },
      { leaf_index: 12, observation_date: '2025-01-03', state: 'unknown-stale', corrects: null },
      { leaf_index: 40, observation_date: '2025-01-04', state: 'archived', corrects: null },
    ];
    const { entries } = encodeEntries(series);
    expect(assertedBefore(entries, 40)).toEqual(series[0]);
    expect(assertedBefore(entries, 3)).toBeNull();
  });
});

describe('HeldSeries: what an append asks of a held row, from its bytes', () => {
  it('answers as decoding the whole row does: dates held, leaves listed, the last asserted reading', () => {
    let seed = 11;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
    for (let s = 0; s < 200; s++) {
      const series: SeriesEntry[] = [];
      let leaf = next(50);
      let date = '2024-01-01';
      for (let i = 0, n = next(40); i < n; i++) {
        leaf += 1 + next(5_000);
        date = addDays(date, next(2));
        const correction = i > 0 && next(4) === 0;
        series.push({
          leaf_index: leaf,
          observation_date: date,
          state: STATES[next(STATES.length)]!,
          corrects: correction ? series[i - 1]!.leaf_index : null,
        });
      }
      const { entries, corrections } = encodeEntries(series);
      const held = new HeldSeries(series.length > 0 ? entries : null);
      for (let d = 0; d < 60; d++) {
        const day = addDays('2024-01-01', d);
        for (const correction of [false, true])
          expect(held.hasReading(day, correction)).toBe(
            decodeEntries(entries, corrections).some(
              (e) => e.observation_date === day && (e.corrects !== null) === correction,
            ),
          );
      }
      for (let l = 0; l <= leaf + 1; l += 1 + next(300))
        expect(held.hasLeaf(l)).toBe(series.some((e) => e.leaf_index === l));
      for (const e of series) expect(held.hasLeaf(e.leaf_index)).toBe(true);
      const last = series.findLast((e) => isAsserted(e.state));
      expect(held.lastAsserted()).toEqual(last ? { ...last, corrects: null } : null);
    }
  });
});
