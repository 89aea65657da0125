/**
 * index.golang.org's pages, parsed (research §1.4): newline-delimited
 * `{"Path","Version","Timestamp"}`, oldest first. A position is the newest Timestamp read and the
 * rows read at exactly that instant (ecosyste.ms' `index_versions_after_cursor` tie-break): the
 * next page asks `since` that instant, which the index answers inclusively, and drops those rows.
 */
import { parsedBy } from '../following/feed-client.js';
export type IndexRow = { path: string; version: string; timestamp: string };
export type GoPosition = { since: string; at_since: string[] };

export function parseIndexPage(text: unknown): IndexRow[] | string {
  if (typeof text !== 'string') return 'not an index page';
  const rows: IndexRow[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      return `a line that is not JSON: ${line.slice(0, 80)}`;
    }
    const r = row as Record<string, unknown>;
    if (typeof r['Path'] !== 'string' || typeof r['Version'] !== 'string' || typeof r['Timestamp'] !== 'string')
      return `a row without Path, Version and Timestamp: ${line.slice(0, 80)}`;
    if (Number.isNaN(Date.parse(r['Timestamp']))) return `a row whose Timestamp is no instant: ${r['Timestamp']}`;
    rows.push({ path: r['Path'], version: r['Version'], timestamp: r['Timestamp'] });
  }
  return rows;
}

const key = (r: IndexRow) => `${r.path}@${r.version}`;

/**
 * A page against a position: the rows after it, the position after them, and whether the page
 * went back before the position (the index never should: its rows are in Timestamp order).
 */
export function afterPosition(
  p: GoPosition,
  rows: IndexRow[],
): { fresh: IndexRow[]; next: GoPosition; behind: IndexRow | null } {
  const sinceMs = Date.parse(p.since);
  const seen = new Set(p.at_since);
  const behind = rows.find((r) => Date.parse(r.timestamp) < sinceMs) ?? null;
  const fresh = rows.filter((r) => Date.parse(r.timestamp) > sinceMs || !seen.has(key(r)));
  const last = rows.at(-1);
  if (!last) return { fresh, next: p, behind };
  const lastMs = Date.parse(last.timestamp);
  const atLast = rows.filter((r) => Date.parse(r.timestamp) === lastMs).map(key);
  // Rows read at the same instant in an earlier page still count: the instant carries over.
  const carried = lastMs === sinceMs ? [...p.at_since, ...atLast] : atLast;
  return { fresh, next: { since: last.timestamp, at_since: [...new Set(carried)] }, behind };
}

/** The feed's answers as the HTTP client's facts, reachable by the thread that reads big bodies. */
export const INDEX_PAGE_FACTS = parsedBy('go-index/1', parseIndexPage, import.meta.url);
