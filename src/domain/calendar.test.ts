import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dateOfDayNumber,
  dayNumber,
  daysBetween,
  isCalendarDate,
  isRfc3339Instant,
  isUtcInstant,
  utcDateOf,
} from './calendar.js';

describe('isCalendarDate', () => {
  it.each([
    ['2025-07-01', true],
    ['2024-02-29', true], // leap year
    ['2000-02-29', true], // divisible by 400
    ['1900-02-29', false], // divisible by 100, not 400
    ['2023-02-29', false],
    ['2025-02-30', false],
    ['2025-04-31', false],
    ['2025-12-31', true],
    ['2025-13-01', false],
    ['2025-00-10', false],
    ['2025-01-00', false],
    ['2025-1-01', false],
    ['2025-01-1', false],
    ['25-01-01', false],
    ['2025/01/01', false],
    ['2025-01-01T00:00:00Z', false],
    [' 2025-01-01', false],
    ['2025-01-01\n', false],
    ['２０２５-01-01', false], // full-width digits are not \d in JS, but make sure
    ['', false],
    ['yesterday', false],
  ])('%j → %s', (s, ok) => {
    expect(isCalendarDate(s)).toBe(ok);
  });
});

describe('daysBetween / addDays', () => {
  it.each([
    ['2025-01-01', '2025-01-01', 0],
    ['2025-01-01', '2025-01-02', 1],
    ['2025-01-02', '2025-01-01', -1],
    ['2024-02-28', '2024-03-01', 2], // across a leap day
    ['2023-02-28', '2023-03-01', 1],
    ['2024-12-31', '2025-01-01', 1],
    ['2024-01-01', '2025-01-01', 366],
    ['1970-01-01', '2000-01-01', 10957],
    ['0050-01-01', '0050-01-02', 1], // Date.UTC would read year 50 as 1950
  ])('from %s to %s is %i days', (from, to, n) => {
    expect(daysBetween(from, to)).toBe(n);
    expect(addDays(from, n)).toBe(to);
  });

  it('refuses what is not a date', () => {
    expect(() => daysBetween('2025-02-30', '2025-03-01')).toThrow(RangeError);
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
  });

  it('addDays and daysBetween are inverse (property)', () => {
    const day = fc.integer({ min: 0, max: 2_900_000 }); // 1970 … ~9900
    fc.assert(
      fc.property(day, fc.integer({ min: -20_000, max: 20_000 }), (d, n) => {
        const a = addDays('1970-01-01', d);
        expect(isCalendarDate(a)).toBe(true);
        expect(daysBetween(a, addDays(a, n))).toBe(n);
      }),
    );
  });

  it('agrees with Date for modern dates (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (d) => {
        const viaDate = new Date(d * 86_400_000).toISOString().slice(0, 10);
        expect(addDays('1970-01-01', d)).toBe(viaDate);
      }),
    );
  });
});

describe('utcDateOf', () => {
  it.each([
    ['2025-07-01T00:00:00Z', '2025-07-01'],
    ['2025-07-01T23:59:59.999Z', '2025-07-01'],
    ['2025-07-01T23:30:00-05:00', '2025-07-02'], // 04:30 UTC next day
    ['2025-07-01T01:00:00+02:00', '2025-06-30'],
    ['2025-01-01T00:30:00+01:00', '2024-12-31'], // across a year
    ['2024-03-01T00:00:00+00:01', '2024-02-29'], // into a leap day
    ['2025-07-01t12:00:00z', '2025-07-01'],
    ['2025-07-01 12:00:00Z', '2025-07-01'],
    ['2016-12-31T23:59:60Z', '2016-12-31'], // leap second
    ['2025-07-01T12:00:00.123456789Z', '2025-07-01'],
  ])('%s → %s', (instant, date) => {
    expect(utcDateOf(instant)).toBe(date);
  });

  it('reads a Date in UTC, whatever the local zone', () => {
    expect(utcDateOf(new Date(Date.UTC(2025, 6, 1, 23, 59)))).toBe('2025-07-01');
    expect(utcDateOf(new Date(0))).toBe('1970-01-01');
  });

  it.each([
    '2025-07-01',
    '2025-07-01T12:00Z',
    '2025-07-01T24:00:00Z',
    '2025-02-30T00:00:00Z',
    '2025-07-01T12:00:00',
    'now',
    '',
  ])('refuses %j', (s) => {
    expect(() => utcDateOf(s)).toThrow(RangeError);
    expect(isRfc3339Instant(s)).toBe(false);
  });

  it('refuses an invalid Date', () => {
    expect(() => utcDateOf(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('agrees with Date for any instant with an offset (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 253_402_214_400_000 - 86_400_000 * 2 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (ms, offsetMin) => {
          const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19);
          const sign = offsetMin < 0 ? '-' : '+';
          const abs = Math.abs(offsetMin);
          const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(utcDateOf(`${local}${off}`)).toBe(new Date(ms).toISOString().slice(0, 10));
        },
      ),
    );
  });
});

describe('isUtcInstant', () => {
  it.each([
    ['2025-07-01T12:00:00Z', true],
    ['2025-07-01T12:00:00.000Z', true],
    ['2025-07-01T12:00:00+00:00', false], // records are written with Z only
    ['2025-07-01 12:00:00Z', false],
    ['2025-07-01t12:00:00z', false],
    ['2025-02-30T12:00:00Z', false],
  ])('%s → %s', (s, ok) => {
    expect(isUtcInstant(s)).toBe(ok);
  });
});

describe('dayNumber', () => {
  it('counts whole days from 1970-01-01, as Date.parse does over the dates a series holds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), (d) => {
        const date = new Date(d * 86_400_000).toISOString().slice(0, 10);
        expect(dayNumber(date)).toBe(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
        expect(dateOfDayNumber(d)).toBe(date);
      }),
    );
  });

  it('refuses what is not a date', () => {
    expect(() => dayNumber('2023-02-29')).toThrow(RangeError);
  });
});
