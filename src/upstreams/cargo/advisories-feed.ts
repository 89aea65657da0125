/**
 * RustSec's advisories as a feed beside crates.io's (DESIGN §8e, docs/methodology.md): OSV's
 * published export of the crates.io ecosystem, `crates.io/modified_id.csv` (a line
 * `<modified>,<ID>` per record, newest first) and `crates.io/<ID>.json`. Each entry modified since
 * the position is read, and every crate its record names as unmaintained (withdrawn or lifted
 * too: either changes the crate's answer) is hinted, so the crate is read the day its advisory is
 * published rather than on its next usual read. The feed only makes crates due: what a crate is
 * stays its read's to say (the read asks OSV's API itself).
 *
 * `modified` is the source's time (RustSec's commit), and OSV's export lags it: an entry can turn
 * up behind one already read. So the position keeps the entries read in a trailing window behind
 * the newest, and an entry of the window not read yet is read late, not lost.
 */
import { isRfc3339Instant, utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { OSV_RECORD_FACTS, unmaintainedCrates } from './advisories.js';
import { parsedBy, unreachableOf } from '../following/feed-client.js';
import type { ChangeHint, FeedFault } from '../following/follower.js';
import { componentOf } from '../following/registry-follower.js';

/** The newest modified instant read (ms), the oldest still watched for late entries, and the entries read since it. */
export type AdvisoriesPosition = { since: number; from: number; seen: string[] };
/** One line of modified_id.csv: the record's modified instant (ms) and its id. */
export type ModifiedEntry = { at: number; id: string };

/** How far behind the newest entry read a late one is still read (the export runs hours behind, a merge days). */
export const LATE_WINDOW_MS = 7 * 86_400_000;
/** Records read in one step; the rest in the next (a bulk rewrite of the ecosystem is ~2,000). */
export const RECORDS_PER_STEP = 100;
/** The most entries the position keeps: past it, the window shortens rather than the cursor growing. */
export const MAX_SEEN = 5_000;
/** The largest modified_id.csv or record read (the crates.io CSV is ~100 kB, a record a few kB). */
export const OSV_EXPORT_BODY_CAP = 8 * 1024 * 1024;
/** A line longer than this is no `<instant>,<id>`: it is skipped unread. */
const MAX_LINE = 200;
/** An OSV id as the CSV may carry it (RUSTSEC-…, GHSA-…): anything else is skipped. */
const OSV_ID = /^[a-z][a-z\d]{0,15}(?:-[a-z\d]{1,20}){1,4}$/i;
/** The ids read: RustSec's (only RustSec writes `informational`), in the one shape it uses. */
export const RUSTSEC_ID = /^RUSTSEC-\d{4}-\d{4,6}$/;
const ECOSYSTEM = 'crates.io';

/**
 * The CSV's entries, line by line in one linear pass; a line that is not `<instant>,<id>` is
 * skipped. A body with lines but none of that shape is no modified_id.csv (an HTML error page).
 */
export function parseModifiedIds(text: unknown): { entries: ModifiedEntry[]; skipped: number } | string {
  if (typeof text !== 'string') return 'not a modified_id.csv (no text)';
  const entries: ModifiedEntry[] = [];
  let skipped = 0;
  for (let start = 0; start < text.length;) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const line = text.slice(start, stop - (text[stop - 1] === '\r' ? 1 : 0));
    start = stop + 1;
    if (line === '') continue;
    const comma = line.indexOf(',');
    const at = comma < 0 ? '' : line.slice(0, comma);
    const id = comma < 0 ? '' : line.slice(comma + 1);
    if (line.length > MAX_LINE || !isRfc3339Instant(at) || !OSV_ID.test(id)) skipped++;
    else entries.push({ at: Date.parse(at), id });
  }
  if (entries.length === 0 && skipped > 0)
    return `not a modified_id.csv: none of its ${skipped} lines is <modified>,<ID>`;
  return { entries, skipped };
}

export const MODIFIED_IDS_FACTS = parsedBy('osv-modified-ids/1', parseModifiedIds, import.meta.url);

/** `<ID>@<modified>`: the hint's marker and the position's key for an entry. */
export function entryKey(e: ModifiedEntry): string {
  return `${e.id}@${new Date(e.at).toISOString()}`;
}

const atOfKey = (key: string) => Date.parse(key.slice(key.lastIndexOf('@') + 1));

/** A first position: at the newest entry, everything listed read (a backfill reads every crate anyway). */
export function initialPosition(entries: ModifiedEntry[]): AdvisoriesPosition {
  return advance({ since: 0, from: 0, seen: [] }, entries);
}

/** The entries not read yet, oldest first: newer than the position, or late inside its window. */
export function pendingEntries(entries: ModifiedEntry[], position: AdvisoriesPosition): ModifiedEntry[] {
  const seen = new Set(position.seen);
  return entries
    .filter((e) => e.at >= position.from && !seen.has(entryKey(e)))
    .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The position once `read` are read: the newest instant moves on, the window follows it, bounded. */
export function advance(position: AdvisoriesPosition, read: ModifiedEntry[]): AdvisoriesPosition {
  const since = read.reduce((m, e) => Math.max(m, e.at), position.since);
  let from = Math.max(position.from, since - LATE_WINDOW_MS);
  let seen = [...new Set([...position.seen, ...read.map(entryKey)])].filter((k) => atOfKey(k) >= from);
  if (seen.length > MAX_SEEN) {
    seen.sort((a, b) => atOfKey(a) - atOfKey(b));
    // Everything at or before the cut leaves the window together: no entry is half remembered.
    const cut = atOfKey(seen[seen.length - MAX_SEEN - 1]!);
    from = cut + 1;
    seen = seen.filter((k) => atOfKey(k) > cut);
  }
  return { since, from, seen };
}

export interface AdvisoriesStep {
  hints: ChangeHint[];
  next: AdvisoriesPosition | null;
  /** Nothing pending is left for this step's successor (or the export failed: the next pass tries again). */
  done: boolean;
  notes: FeedFault[];
}

/**
 * One step: read modified_id.csv, then at most RECORDS_PER_STEP pending records, oldest first.
 * The export failing never fails the crates.io step it runs in: the position stays and a note says so.
 */
export async function followAdvisories(
  client: HttpClient,
  base: string,
  position: AdvisoriesPosition | null,
  now: () => Date,
): Promise<AdvisoriesStep> {
  const fault = (detail: string): FeedFault => ({ kind: 'unreachable', detail, at: now().toISOString() });
  const csv = await readModifiedIds(client, base);
  if (typeof csv === 'string') return { hints: [], next: position, done: true, notes: [fault(`OSV's export: ${csv}`)] };
  if (position === null) return { hints: [], next: initialPosition(csv), done: true, notes: [] };
  const pending = pendingEntries(csv, position);
  const hints: ChangeHint[] = [];
  const read: ModifiedEntry[] = [];
  const notes: FeedFault[] = [];
  for (const entry of pending.slice(0, RECORDS_PER_STEP)) {
    // Other databases' records in the ecosystem (GHSA…) carry no RustSec declaration: not fetched.
    if (!RUSTSEC_ID.test(entry.id)) {
      read.push(entry);
      continue;
    }
    const answer = await client.get(`${base}/${ECOSYSTEM}/${entry.id}.json`, {
      accept: 'application/json',
      facts: OSV_RECORD_FACTS,
    });
    if (answer.kind === 'facts') {
      for (const name of unmaintainedCrates(answer.facts)) {
        const component = componentOf('cargo', name);
        if (component)
          hints.push({
            component,
            changed_on: utcDateOf(new Date(entry.at)),
            marker: entryKey(entry),
            removal: false,
          });
      }
      read.push(entry);
      continue;
    }
    const why = unreachableOf(answer).unreachable;
    // A record gone or unreadable is passed over (the crates' usual reads still ask OSV's API); a
    // transport failure or a limit stops here, and the rest waits for the next pass.
    if (answer.kind === 'status' || answer.reason === 'unparsable') {
      notes.push(fault(`OSV's export: ${entry.id} passed over: ${why}`));
      read.push(entry);
      continue;
    }
    notes.push(fault(`OSV's export: ${why}`));
    return { hints, next: advance(position, read), done: true, notes };
  }
  return { hints, next: advance(position, read), done: pending.length <= RECORDS_PER_STEP, notes };
}

async function readModifiedIds(client: HttpClient, base: string): Promise<ModifiedEntry[] | string> {
  const answer = await client.get(`${base}/${ECOSYSTEM}/modified_id.csv`, {
    accept: 'text/csv',
    body: 'text',
    facts: MODIFIED_IDS_FACTS,
  });
  return answer.kind === 'facts' ? answer.facts.entries : unreachableOf(answer).unreachable;
}
