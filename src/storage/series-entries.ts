import { dateOfDayNumber, dayNumber, isCalendarDate } from '../domain/calendar.js';
import type { SeriesEntry } from '../domain/observation.js';
import { STATES, type State } from '../domain/state.js';
import { LogInvariantError } from './store-errors.js';

/**
 * A component's series, kept in one row beside its component (DESIGN §8b): every reading's leaf,
 * date, state and whether it is a correction, ENTRY_BYTES each in leaf order, so an uncached read
 * finds the whole series with one primary-key lookup, and appending a reading adds ten bytes.
 *
 *   entry:      u48 leaf index · u16 days since 1970-01-01 · u8 state code · u8 flags (1: correction)
 *   correction: u48 leaf index · u48 the leaf it corrects (a second column, NULL while there are none)
 *
 * The fixed width lets SQL pick the reading an answer rests on without decoding in JavaScript
 * (tended_series_pick, defined in each backend's migration 11), in the same query as the series.
 */
export const ENTRY_BYTES = 10;
const CORRECTION_BYTES = 12;
const CORRECTION = 1;

/**
 * State codes: a state's place in this list, fixed forever (stored rows use them). A new state is
 * added at the end, never in between.
 */
const STATE_CODES: readonly State[] = [
  'alive',
  'dormant',
  'abandoned',
  'archived',
  'deleted',
  'eol',
  'unknown-stale',
  'not_observed',
];
if (STATE_CODES.length !== STATES.length || STATES.some((s) => !STATE_CODES.includes(s)))
  throw new Error('every state needs a fixed series code');

/** The u16 day an entry keeps for `date`: a LogInvariantError for a date a series cannot hold. */
function entryDay(date: string): number {
  const day = isCalendarDate(date) ? dayNumber(date) : -1;
  if (day < 0 || day > 0xffff) throw new LogInvariantError(`${date} cannot be kept in a series`);
  return day;
}

// Dates by day number, made once each: an uncached read decodes every reading of its component's
// series, and formatting a Date for each was a few percent of the read. At most 65,536 of them.
const DATES = new Map<number, string>();

function dateOfDay(day: number): string {
  let date = DATES.get(day);
  if (date === undefined) {
    date = dateOfDayNumber(day);
    DATES.set(day, date);
  }
  return date;
}

/** The entries (and corrections, when any) of `readings`, in the order given. */
export function encodeEntries(readings: SeriesEntry[]): { entries: Uint8Array; corrections: Uint8Array | null } {
  const entries = Buffer.alloc(readings.length * ENTRY_BYTES);
  const corrected = readings.filter((r) => r.corrects !== null);
  const corrections = corrected.length > 0 ? Buffer.alloc(corrected.length * CORRECTION_BYTES) : null;
  let c = 0;
  readings.forEach((r, i) => {
    const at = i * ENTRY_BYTES;
    entries.writeUIntBE(r.leaf_index, at, 6);
    entries.writeUInt16BE(entryDay(r.observation_date), at + 6);
    entries[at + 8] = STATE_CODES.indexOf(r.state);
    entries[at + 9] = r.corrects !== null ? CORRECTION : 0;
    if (r.corrects !== null) {
      corrections!.writeUIntBE(r.leaf_index, c, 6);
      corrections!.writeUIntBE(r.corrects, c + 6, 6);
      c += CORRECTION_BYTES;
    }
  });
  return { entries, corrections };
}

/** The series a row holds, in leaf order. */
export function decodeEntries(entries: Uint8Array, corrections: Uint8Array | null): SeriesEntry[] {
  const buf = Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength);
  if (buf.length % ENTRY_BYTES !== 0) throw new LogInvariantError('a series row has a broken entry');
  const corrected = new Map<number, number>();
  if (corrections) {
    const cbuf = Buffer.from(corrections.buffer, corrections.byteOffset, corrections.byteLength);
    for (let at = 0; at + CORRECTION_BYTES <= cbuf.length; at += CORRECTION_BYTES)
      corrected.set(cbuf.readUIntBE(at, 6), cbuf.readUIntBE(at + 6, 6));
  }
  const series: SeriesEntry[] = [];
  for (let at = 0; at < buf.length; at += ENTRY_BYTES) {
    const leaf = buf.readUIntBE(at, 6);
    const state = STATE_CODES[buf[at + 8]!];
    if (state === undefined) throw new LogInvariantError(`a series row names an unknown state code ${buf[at + 8]}`);
    series.push({
      leaf_index: leaf,
      observation_date: dateOfDay(buf.readUInt16BE(at + 6)),
      state,
      corrects: buf[at + 9]! & CORRECTION ? (corrected.get(leaf) ?? null) : null,
    });
  }
  return series;
}

/** The leaf of the latest reading dated on or before `date` (the highest leaf on its date), or null. */
export function pickReading(series: SeriesEntry[], date: string): number | null {
  let best: SeriesEntry | null = null;
  for (const entry of series) {
    if (entry.observation_date > date) continue;
    if (
      best === null ||
      entry.observation_date > best.observation_date ||
      (entry.observation_date === best.observation_date && entry.leaf_index > best.leaf_index)
    )
      best = entry;
  }
  return best?.leaf_index ?? null;
}

/** The same choice as pickReading, straight from a row's bytes: SQLite's tended_series_pick. */
export function pickFromEntries(entries: Uint8Array | null, day: number): number | null {
  if (entries === null) return null;
  const buf = Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength);
  let bestDay = -1;
  let bestLeaf: number | null = null;
  for (let at = 0; at + ENTRY_BYTES <= buf.length; at += ENTRY_BYTES) {
    const d = buf.readUInt16BE(at + 6);
    if (d > day) continue;
    const leaf = buf.readUIntBE(at, 6);
    if (d > bestDay || (d === bestDay && leaf > bestLeaf!)) {
      bestDay = d;
      bestLeaf = leaf;
    }
  }
  return bestLeaf;
}

/** The highest leaf a row lists (its last entry): the component's version. */
export function latestLeaf(entries: Uint8Array): number | null {
  if (entries.byteLength < ENTRY_BYTES) return null;
  const buf = Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength);
  return buf.readUIntBE(buf.length - ENTRY_BYTES, 6);
}

/**
 * The asserted reading just before leaf `leaf` in a row (the change feed's "from"), straight from
 * its bytes: a binary search for the leaf (entries are in leaf order), then a walk back over
 * not_observed and unknown-stale ones. Only the one entry is decoded, so a page over thousands of
 * components with years of readings each does not build an object per reading. undefined when the
 * row does not list `leaf`; null when nothing asserted comes before it.
 */
export function assertedBefore(entries: Uint8Array, leaf: number): SeriesEntry | null | undefined {
  const buf = Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength);
  const at = entryOfLeaf(buf, leaf);
  return at < 0 ? undefined : lastAssertedBefore(buf, at);
}

/** The place of `leaf`'s entry in a row, or -1: entries are in leaf order, so a binary search. */
function entryOfLeaf(buf: Buffer, leaf: number): number {
  let lo = 0;
  let hi = Math.floor(buf.length / ENTRY_BYTES) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const l = buf.readUIntBE(mid * ENTRY_BYTES, 6);
    if (l === leaf) return mid;
    if (l < leaf) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The last asserted entry of a row before entry `end` (not_observed and unknown-stale ones
 * skipped), decoded alone; its corrects is not read (null): neither the feed nor an append asks.
 */
function lastAssertedBefore(buf: Buffer, end: number): SeriesEntry | null {
  for (let i = end - 1; i >= 0; i--) {
    const state = STATE_CODES[buf[i * ENTRY_BYTES + 8]!];
    if (state === undefined)
      throw new LogInvariantError(`a series row names an unknown state code ${buf[i * ENTRY_BYTES + 8]}`);
    if (state === 'not_observed' || state === 'unknown-stale') continue;
    const o = i * ENTRY_BYTES;
    return {
      leaf_index: buf.readUIntBE(o, 6),
      observation_date: dateOfDay(buf.readUInt16BE(o + 6)),
      state,
      corrects: null,
    };
  }
  return null;
}

/**
 * What an append asks of a component's held series, answered from the row's bytes without
 * decoding it: a component read daily for years has thousands of entries, and building an object
 * for each on every append would make an append cost grow with the component's age.
 */
export class HeldSeries {
  private readonly buf: Buffer;

  constructor(entries: Uint8Array | null) {
    this.buf = entries ? Buffer.from(entries.buffer, entries.byteOffset, entries.byteLength) : Buffer.alloc(0);
    if (this.buf.length % ENTRY_BYTES !== 0) throw new LogInvariantError('a series row has a broken entry');
  }

  /** Whether a reading dated `date`, a correction or not, is held. */
  hasReading(date: string, correction: boolean): boolean {
    const day = entryDay(date);
    for (let at = 0; at < this.buf.length; at += ENTRY_BYTES)
      if (this.buf.readUInt16BE(at + 6) === day && (this.buf[at + 9]! & CORRECTION ? true : false) === correction)
        return true;
    return false;
  }

  /** Whether the row lists `leaf`. */
  hasLeaf(leaf: number): boolean {
    return entryOfLeaf(this.buf, leaf) >= 0;
  }

  /** The last asserted reading the row holds (its "corrects" not read: not asked), or null. */
  lastAsserted(): SeriesEntry | null {
    return lastAssertedBefore(this.buf, this.buf.length / ENTRY_BYTES);
  }
}
