import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from './calendar.js';
import { dueAt, nextFollowedRead, nextSweepDay, nextThresholdDay, sweepSlot } from './follow-schedule.js';
import { classify } from './state.js';

const pkg = (id: string) => ({ kind: 'npm' as const, id });

describe('the sweep', () => {
  it('gives each package a fixed slot and reads it within the sweep length, on that slot', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 90 }),
        (name, offset, sweepDays) => {
          const after = addDays('2020-01-01', offset);
          const next = nextSweepDay(pkg(name), after, sweepDays);
          const gap = daysBetween(after, next);
          expect(gap).toBeGreaterThanOrEqual(1);
          expect(gap).toBeLessThanOrEqual(sweepDays);
          // The next sweep after that one is exactly a sweep length later: the slot does not move.
          expect(nextSweepDay(pkg(name), next, sweepDays)).toBe(addDays(next, sweepDays));
        },
      ),
    );
  });

  it('spreads 30,000 names about evenly over 30 days', () => {
    const perSlot = new Array<number>(30).fill(0);
    for (let i = 0; i < 30_000; i++) perSlot[sweepSlot(pkg(`package-${i}`), 30)]!++;
    // 1,000 a day on average; a fair hash stays within a few standard deviations (~32).
    expect(Math.min(...perSlot)).toBeGreaterThan(850);
    expect(Math.max(...perSlot)).toBeLessThan(1_150);
  });
});

describe('age thresholds', () => {
  it('names the first dormant day, then the first abandoned day, then nothing', () => {
    const last = '2025-01-10T15:00:00Z';
    expect(nextThresholdDay(last, '2025-02-01')).toBe('2025-07-10');
    expect(classify({ lastActivity: last }, '2025-07-09')).toBe('alive');
    expect(classify({ lastActivity: last }, '2025-07-10')).toBe('dormant');
    expect(nextThresholdDay(last, '2025-07-10')).toBe('2026-01-11');
    expect(classify({ lastActivity: last }, '2026-01-10')).toBe('dormant');
    expect(classify({ lastActivity: last }, '2026-01-11')).toBe('abandoned');
    expect(nextThresholdDay(last, '2026-01-11')).toBeNull();
    expect(nextThresholdDay(null, '2025-02-01')).toBeNull();
    expect(nextThresholdDay('not a date', '2025-02-01')).toBeNull();
  });

  it('makes the next read the earlier of the crossing and the sweep day', () => {
    const ref = pkg('left-pad');
    const readOn = '2025-07-01';
    const sweep = nextSweepDay(ref, readOn, 30);
    // Crossing into dormant tomorrow: read then, for the threshold.
    expect(nextFollowedRead(ref, readOn, '2025-01-02T08:00:00Z', 30)).toEqual({
      on: '2025-07-02',
      reason: 'threshold',
    });
    // No crossing within the sweep: the sweep day.
    expect(nextFollowedRead(ref, readOn, '2025-06-30T00:00:00Z', 30)).toEqual({ on: sweep, reason: 'sweep' });
    // No age at all (a failed or deleted read): the sweep day.
    expect(nextFollowedRead(ref, readOn, null, 30)).toEqual({ on: sweep, reason: 'sweep' });
  });
});

describe('dueAt', () => {
  it('puts age crossings and sweeps late in their day, and events and backfill at its start', () => {
    expect(dueAt('2026-03-04', 'sweep')).toBe('2026-03-04T18:00:00.000Z');
    expect(dueAt('2026-03-04', 'threshold')).toBe('2026-03-04T18:00:00.000Z');
    expect(dueAt('2026-03-04', 'event')).toBe('2026-03-04T00:00:00.000Z');
    expect(dueAt('2026-03-04', 'backfill')).toBe('2026-03-04T00:00:00.000Z');
  });
});
