/**
 * Listing Packagist: `/packages/list.json`, every package's name in one answer, handed out a page
 * at a time. Names only: no time, no version, so a re-listing after a `resync` lists every
 * package for the scheduler to compare, and hints none.
 */
import type { HttpClient } from '../http/client.js';
import { unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import { type ComposerPosition, PACKAGE_LIST_FACTS } from './feed.js';

export const LIST_PAGE = 1_000;

export function createComposerListing(client: HttpClient, base: string) {
  let held: string[] | null = null;
  return async function listComposer(at: string | null): Promise<ListPage<string, ComposerPosition> | Unreachable> {
    if (at === null || held === null) {
      const answer = await client.get(`${base}/packages/list.json`, {
        accept: 'application/json',
        facts: PACKAGE_LIST_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      held = [...answer.facts].sort();
    }
    const names = held;
    let from = 0;
    if (at !== null) while (from < names.length && names[from]! <= at) from++;
    const slice = names.slice(from, from + LIST_PAGE);
    const listed: ListedPackage[] = [];
    for (const name of slice) {
      const component = componentOf('composer', name);
      if (component) listed.push({ component, marker: null });
    }
    const done = from + LIST_PAGE >= names.length;
    if (done) held = null;
    return { listed, hints: [], next: done ? null : slice.at(-1)! };
  };
}
