/**
 * npm's replication feed, parsed (research §1.1): a `_changes` page `{results: [{seq, id,
 * changes: [{rev}], deleted?}], last_seq}` and the root `{update_seq, doc_count}`. Names and
 * sequences only: no version, no time, no document.
 *
 * The trailing window: entries can appear behind a last_seq already returned (late insertion), so
 * a follower remembers which seq of the last WINDOW it has seen and re-reads that window once a
 * pass; an entry in it not seen before is a late one, one seen before is not hinted twice.
 */
import { parsedBy } from '../following/feed-client.js';
import { asJsonObject } from '../../domain/json-object.js';
export type ChangeRow = { seq: number; id: string; rev: string | null; deleted: boolean };
export type ChangesPage = { results: ChangeRow[]; last_seq: number };
export type ReplicateRoot = { update_seq: number; doc_count: number | null };

/** The seq as a number: the 2025 service answers integers (a CouchDB-style opaque string is refused, not guessed at). */
function seqOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return null;
}

export function parseChangesPage(body: unknown): ChangesPage | string {
  const page = asJsonObject(body);
  const results = page?.['results'];
  const last = seqOf(page?.['last_seq']);
  if (!Array.isArray(results) || last === null) return 'not a _changes page: no results array or no numeric last_seq';
  const rows: ChangeRow[] = [];
  for (const r of results) {
    const row = asJsonObject(r);
    const seq = seqOf(row?.['seq']);
    const id = row?.['id'];
    if (seq === null || typeof id !== 'string') return 'a _changes row without a numeric seq or a string id';
    // Design documents (`_design/…`) are the database's, not packages.
    if (id.startsWith('_design/')) continue;
    const changes = row?.['changes'];
    const rev = Array.isArray(changes) ? asJsonObject(changes[0])?.['rev'] : undefined;
    rows.push({ seq, id, rev: typeof rev === 'string' ? rev : null, deleted: row?.['deleted'] === true });
  }
  return { results: rows, last_seq: last };
}

export function parseRoot(body: unknown): ReplicateRoot | string {
  const root = asJsonObject(body);
  const head = seqOf(root?.['update_seq']);
  if (head === null) return 'the replication root has no numeric update_seq';
  const count = root?.['doc_count'];
  return { update_seq: head, doc_count: typeof count === 'number' ? count : null };
}

/** Where a follower stands: the last seq read, and which seq of the window ending there it has seen. */
export type NpmPosition = { seq: number; window: number; seen: string };

function bitsOf(p: NpmPosition): Uint8Array {
  const bytes = Buffer.from(p.seen, 'base64url');
  const out = new Uint8Array(Math.ceil(p.window / 8));
  out.set(bytes.subarray(0, out.length));
  return out;
}

/** A position at `seq` whose window counts as seen (after a listing, which read it all). */
export function positionAt(seq: number, window: number): NpmPosition {
  return { seq, window, seen: Buffer.from(new Uint8Array(Math.ceil(window / 8)).fill(0xff)).toString('base64url') };
}

/**
 * Reads a page against a position: rows after it are fresh, rows inside its window not seen
 * before are late, the rest were hinted already. Returns the position after the page.
 */
export function advance(
  p: NpmPosition,
  page: ChangesPage,
): { position: NpmPosition; fresh: ChangeRow[]; late: ChangeRow[] } {
  const seen = new Set<number>();
  const bits = bitsOf(p);
  for (let i = 0; i < p.window; i++) if (bits[i >> 3]! & (1 << (i & 7))) seen.add(p.seq - p.window + 1 + i);
  const fresh: ChangeRow[] = [];
  const late: ChangeRow[] = [];
  for (const row of page.results) {
    if (seen.has(row.seq)) continue;
    if (row.seq > p.seq) fresh.push(row);
    else if (row.seq > p.seq - p.window) late.push(row);
    seen.add(row.seq);
  }
  // A last_seq behind the position is the caller's to call a regression; the position never moves back.
  const seq = Math.max(p.seq, page.last_seq);
  const out = new Uint8Array(Math.ceil(p.window / 8));
  for (let i = 0; i < p.window; i++) if (seen.has(seq - p.window + 1 + i)) out[i >> 3]! |= 1 << (i & 7);
  return { position: { seq, window: p.window, seen: Buffer.from(out).toString('base64url') }, fresh, late };
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const ROOT_FACTS = parsedBy('npm-root/1', parseRoot, import.meta.url);
export const CHANGES_PAGE_FACTS = parsedBy('npm-changes/1', parseChangesPage, import.meta.url);
