/**
 * Listing PyPI: the Simple index's JSON form, every project with its `_last-serial`, in one
 * answer (tens of megabytes at full size), handed out a page of names at a time. Its meta
 * `_last-serial` is where the journal is followed from. On a re-listing the serials say exactly
 * which projects changed after the serial the journal was left at: those are hinted.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ChangeHint, ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import { type SimpleIndex, SIMPLE_INDEX_FACTS } from './feed.js';

/** Names per listing batch: the scheduler handles bounded batches and commits the cursor between them. */
export const LIST_PAGE = 1_000;

export type PypiPosition = { serial: number };

export function createPypiListing(client: HttpClient, base: string, now: () => Date) {
  /** The index read for the listing in progress; a restart reads it again. */
  let held: SimpleIndex | null = null;
  return async function listPypi(
    at: string | null,
    around: { changedAfter: PypiPosition | null },
  ): Promise<ListPage<string, PypiPosition> | Unreachable> {
    if (at === null || held === null) {
      const answer = await client.get(`${base}/simple/`, {
        accept: 'application/vnd.pypi.simple.v1+json',
        facts: SIMPLE_INDEX_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      held = answer.facts;
    }
    const index = held;
    // Names come sorted; a resumed listing starts after the last name it handed out.
    let from = 0;
    if (at !== null) while (from < index.projects.length && index.projects[from]![0] <= at) from++;
    const slice = index.projects.slice(from, from + LIST_PAGE);
    const listed: ListedPackage[] = [];
    const hints: ChangeHint[] = [];
    const since = around.changedAfter?.serial ?? null;
    for (const [name, serial] of slice) {
      const component = componentOf('pypi', name);
      if (!component) continue;
      listed.push({ component, marker: String(serial) });
      if (since !== null && serial > since)
        hints.push({ component, changed_on: utcDateOf(now()), marker: String(serial), removal: false });
    }
    const done = from + LIST_PAGE >= index.projects.length;
    if (done) held = null;
    return {
      listed,
      hints,
      next: done ? null : slice.at(-1)![0],
      ...(done ? { followFrom: { serial: index.last_serial } } : {}),
    };
  };
}
