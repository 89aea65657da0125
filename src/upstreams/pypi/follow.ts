/**
 * Following PyPI's journal (research §1.2): XML-RPC `changelog_since_serial(serial)`, at most
 * 50,000 rows a call, ordered by serial (the journal table's own sequence, so a follower that
 * keeps its serial misses no row). Each project in a page is one hint, dated by its newest row's
 * timestamp. A row at or below the serial asked after would be the journal going backwards: a
 * fault, and the index is listed again.
 *
 * What the journal never says: a PEP 792 status change (archived, deprecated) writes no row and
 * moves no serial (warehouse's archive_project()), so the sweep of held packages dates it.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { unreachableOf } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, type RegistryFeed, regressedAt } from '../following/registry-follower.js';
import { changelogSinceSerialCall, type JournalRow, JOURNAL_FACTS } from './feed.js';
import { createPypiListing, type PypiPosition } from './list.js';

/** warehouse's `.limit(50000)` on changelog_since_serial. */
export const JOURNAL_PAGE = 50_000;

export function createPypiFeed(client: HttpClient, base: string, now: () => Date): RegistryFeed<string, PypiPosition> {
  const list = createPypiListing(client, base, now);
  return {
    registry: 'pypi',
    // The Simple index says where the journal stands when it is read: the listing gives the position.
    head: () => Promise.resolve(null),
    list,
    async follow(from) {
      const answer = await client.get(`${base}/pypi`, {
        accept: 'text/xml',
        body: 'text',
        post: { contentType: 'text/xml', body: changelogSinceSerialCall(from.serial) },
        facts: JOURNAL_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      const rows = answer.facts;
      const behind = rows.find((r) => r.serial <= from.serial);
      if (behind) return regressedAt(from, `the journal answered serial ${behind.serial} after serial ${from.serial}`);
      // One hint per project: its newest row in the page says when and what.
      const newest = new Map<string, JournalRow>();
      for (const r of rows) newest.set(r.name, r);
      const hints: ChangeHint[] = [];
      for (const r of newest.values()) {
        const component = componentOf('pypi', r.name);
        if (!component) continue;
        hints.push({
          component,
          changed_on: utcDateOf(new Date(r.timestamp * 1000)),
          marker: String(r.serial),
          removal: r.action === 'remove project',
        });
      }
      const next = rows.length > 0 ? { serial: rows.at(-1)!.serial } : from;
      return { hints, next, caughtUp: rows.length < JOURNAL_PAGE, page: { asked: JOURNAL_PAGE, rows: rows.length } };
    },
  };
}
