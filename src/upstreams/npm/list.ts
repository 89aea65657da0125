/**
 * Listing npm: the replication feed read from seq 0, which holds one entry per document (its
 * newest change), 10,000 a page. Resumable at any page: the cursor is the last seq read. Deleted
 * documents are tombstones, not packages: they are not listed. A backfill hints nothing, since
 * rows carry no time (following from the head taken before it sees what changed meanwhile), nor
 * does a periodic one (following resumes where it was); a re-listing after a fault hints every
 * tombstone as a removal, since a deletion is the one change a package no longer listed cannot
 * show by a new rev.
 */
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import { utcDateOf } from '../../domain/calendar.js';
import type { ChangeHint, ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import { type NpmPosition, CHANGES_PAGE_FACTS } from './feed.js';

/** npm's largest page (`limit` caps at 10,000; more answers 400). */
export const NPM_PAGE = 10_000;

export async function listNpm(
  client: HttpClient,
  base: string,
  at: number | null,
  afterFault: boolean,
  now: () => Date,
  pageSize = NPM_PAGE,
): Promise<ListPage<number, NpmPosition> | Unreachable> {
  const answer = await client.get(`${base}/registry/_changes?since=${at ?? 0}&limit=${pageSize}`, {
    accept: 'application/json',
    facts: CHANGES_PAGE_FACTS,
  });
  if (answer.kind !== 'facts') return unreachableOf(answer);
  const page = answer.facts;
  const listed: ListedPackage[] = [];
  const hints: ChangeHint[] = [];
  for (const row of page.results) {
    const component = componentOf('npm', row.id);
    if (!component) continue;
    if (!row.deleted) listed.push({ component, marker: row.rev });
    else if (afterFault) hints.push({ component, changed_on: utcDateOf(now()), marker: row.rev, removal: true });
  }
  // A short page is the end: the scan reached the head. A full one whose last_seq is not past
  // where it started does not move on (the follower refuses a listing that stays put).
  const next = page.results.length < pageSize ? null : Math.max(page.last_seq, at ?? 0);
  return { listed, hints, next, page: { asked: pageSize, rows: page.results.length } };
}
