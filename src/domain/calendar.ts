/**
 * UTC calendar dates written `YYYY-MM-DD`.
 *
 * Day arithmetic is done on integer day numbers (Howard Hinnant's civil-date algorithms)
 * rather than through `Date`, because `Date.UTC` maps years 0–99 onto 1900–1999 and
 * `Date.parse` accepts shapes RFC 3339 does not; a record that is meant to be verified
 * later must not depend on either quirk.
 */
import { quoteInput } from './errors.js';

/** Milliseconds in a UTC day (no leap seconds in POSIX time). */
export const DAY_MS = 86_400_000;

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * RFC 3339 `date-time`. The RFC allows a space or a lower-case `t`/`z` by agreement; we
 * accept them when reading an instant, but records we write use `T` and `Z` only.
 */
const INSTANT_SHAPE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

/** The strict form every instant we store or commit to a leaf takes. */
const UTC_INSTANT_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function parts(s: string): [number, number, number] | null {
  const m = DATE_SHAPE.exec(s);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return [y, mo, d];
}

/** True for a real Gregorian date written exactly `YYYY-MM-DD` (2024-02-29 yes, 2023-02-29 no). */
export function isCalendarDate(s: string): boolean {
  return typeof s === 'string' && parts(s) !== null;
}

function requireDate(s: string, what: string): [number, number, number] {
  const p = typeof s === 'string' ? parts(s) : null;
  if (!p) throw new RangeError(`${what} must be a calendar date written YYYY-MM-DD; got ${quoteInput(String(s))}`);
  return p;
}

/** Days since 1970-01-01 (proleptic Gregorian). */
function civilDay([y0, m, d]: [number, number, number]): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * The day number of a date: whole days since 1970-01-01, negative before it. The one conversion of
 * a date to a number (series entries, the SQL pick, ages in days); throws RangeError for a non-date.
 */
export function dayNumber(date: string): number {
  return civilDay(requireDate(date, 'date'));
}

/** The date of a day number (days since 1970-01-01); RangeError outside years 0000–9999. */
export function dateOfDayNumber(n: number): string {
  const z = n + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  // Outside 0000–9999 the date cannot be written YYYY-MM-DD, so it cannot be a record date.
  if (y < 0 || y > 9999) throw new RangeError(`date out of range: year ${y}`);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Whole days from `from` to `to` (to − from); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return civilDay(requireDate(to, 'to')) - civilDay(requireDate(from, 'from'));
}

/** The date `n` whole days after `date` (before it when `n` is negative). */
export function addDays(date: string, n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`addDays needs a whole number of days; got ${n}`);
  return dateOfDayNumber(dayNumber(date) + n);
}

/** True for an RFC 3339 date-time with a real date, a real clock time and an offset. */
export function isRfc3339Instant(s: string): boolean {
  return typeof s === 'string' && instantDate(s) !== null;
}

/** True for the strict UTC form we write: `YYYY-MM-DDTHH:MM:SS[.fff…]Z`. */
export function isUtcInstant(s: string): boolean {
  return typeof s === 'string' && UTC_INSTANT_SHAPE.test(s) && instantDate(s) !== null;
}

/** The UTC date of an RFC 3339 instant, or null when it is not one. */
function instantDate(s: string): string | null {
  const m = INSTANT_SHAPE.exec(s);
  if (!m) return null;
  const [, date, hh, mi, ss, z, sign, oh, om] = m;
  const p = parts(date ?? '');
  const h = Number(hh);
  const min = Number(mi);
  // Second 60 is a leap second, which RFC 3339 allows; it does not move the date.
  if (!p || h > 23 || min > 59 || Number(ss) > 60) return null;
  let offset = 0;
  if (!z) {
    if (Number(oh) > 23 || Number(om) > 59) return null;
    offset = (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  // Local wall time minus the offset is UTC; only the whole-day carry matters here.
  const carry = Math.floor((h * 60 + min - offset) / 1440);
  try {
    return dateOfDayNumber(civilDay(p) + carry);
  } catch {
    return null;
  }
}

/** The UTC calendar date of an instant (a `Date`, or an RFC 3339 string with any offset). */
export function utcDateOf(instant: Date | string): string {
  if (instant instanceof Date) {
    const t = instant.getTime();
    if (Number.isNaN(t)) throw new RangeError('utcDateOf got an invalid Date');
    return dateOfDayNumber(Math.floor(t / DAY_MS));
  }
  const d = instantDate(instant);
  if (d === null) throw new RangeError(`not an RFC 3339 instant: ${quoteInput(String(instant))}`);
  return d;
}
