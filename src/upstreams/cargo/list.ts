/**
 * Listing crates.io: the daily database dump (1.7 GiB compressed at full size, research §1.3),
 * every crate listed with its `updated_at`. The dump is also how crates.io is diffed: each
 * listing hints the crates whose `updated_at` is after the last dump diffed (a publication, but
 * also a yank, which the updates feed never reports), so what the feed missed is hinted within
 * a day. A deletion shows only as a crate's absence: the sweep of held packages finds it.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ChangeHint, ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import type { AdvisoriesPosition } from './advisories-feed.js';
import { type CratesDump, DUMP_FACTS } from './feed.js';

export const LIST_PAGE = 1_000;

/**
 * The feed's newest instant read, the items read at it, the newest dump diffed, and where OSV's
 * export of RustSec's advisories was left (null or absent: not read yet; a cursor from before it).
 */
export type CratesPosition = {
  since: number;
  at_since: string[];
  dump: number | null;
  advisories?: AdvisoriesPosition | null;
};

export function createCratesListing(client: HttpClient, base: string) {
  let held: CratesDump | null = null;
  return async function listCrates(
    at: string | null,
    around: { changedAfter: CratesPosition | null; followFrom: CratesPosition | null },
  ): Promise<ListPage<string, CratesPosition> | Unreachable> {
    if (at === null || held === null) {
      const answer = await client.get(`${base}/db-dump.tar.gz`, {
        accept: 'application/gzip',
        body: 'bytes',
        facts: DUMP_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      held = {
        ...answer.facts,
        crates: [...answer.facts.crates].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
      };
    }
    const dump = held;
    const dumpMs = Date.parse(dump.timestamp);
    const diffedTo = around.changedAfter?.dump ?? null;
    let from = 0;
    if (at !== null) while (from < dump.crates.length && dump.crates[from]![0] <= at) from++;
    const slice = dump.crates.slice(from, from + LIST_PAGE);
    const listed: ListedPackage[] = [];
    const hints: ChangeHint[] = [];
    for (const [name, updated] of slice) {
      const component = componentOf('cargo', name);
      if (!component) continue;
      const marker = new Date(updated).toISOString();
      listed.push({ component, marker });
      if (diffedTo !== null && updated > diffedTo)
        hints.push({ component, changed_on: utcDateOf(new Date(updated)), marker, removal: false });
    }
    const done = from + LIST_PAGE >= dump.crates.length;
    if (!done) return { listed, hints, next: slice.at(-1)![0] };
    held = null;
    // An older dump than the one diffed last moves nothing back.
    const diffed = Math.max(dumpMs, diffedTo ?? dumpMs);
    const resume: CratesPosition = around.followFrom ?? { since: dumpMs, at_since: [], dump: null };
    // A re-listing after a break resumes the advisories where they were left, not at the head: the
    // listing hints no advisory, so those published meanwhile are still to be read.
    const advisories = around.changedAfter?.advisories ?? resume.advisories ?? null;
    return { listed, hints, next: null, followFrom: { ...resume, dump: diffed, advisories } };
  };
}
