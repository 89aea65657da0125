/**
 * Listing NuGet: the catalog from its first page (~23,000 pages of ≤ 550 items at full size), in
 * commit order, every id listed with the version each item names; a PackageDelete item is hinted
 * as a removal (the read decides). Resumable at any page. Pages are those of the index read when
 * the listing began; following starts from that index's commitTimeStamp.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { isUnreachable, unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ChangeHint, ListedPackage } from '../following/follower.js';
import { componentOf, type ListPage } from '../following/registry-follower.js';
import { type CatalogIndex, type CatalogItem, CATALOG_INDEX_FACTS, CATALOG_PAGE_FACTS } from './feed.js';

export type NugetPosition = { commit: string };

export async function readCatalogIndex(client: HttpClient, base: string): Promise<CatalogIndex | Unreachable> {
  const answer = await client.get(`${base}/v3/catalog0/index.json`, {
    accept: 'application/json',
    facts: CATALOG_INDEX_FACTS,
  });
  return answer.kind === 'facts' ? answer.facts : unreachableOf(answer);
}

export async function readCatalogPage(client: HttpClient, url: string): Promise<CatalogItem[] | Unreachable> {
  const answer = await client.get(url, {
    accept: 'application/json',
    facts: CATALOG_PAGE_FACTS,
  });
  return answer.kind === 'facts' ? answer.facts : unreachableOf(answer);
}

/**
 * A catalog item's marker: its commit and version. The version alone would repeat when a version
 * already read is deprecated or unlisted (a new catalog item for the same version), and the
 * schedule would skip that hint as already read; the commit makes every item's change its own.
 */
export function itemMarker(item: CatalogItem): string {
  return `${item.commit} ${item.version}`;
}

/** A catalog item as a hint: dated by its commit, a PackageDelete called a removal. */
export function itemHint(item: CatalogItem): ChangeHint | null {
  const component = componentOf('nuget', item.id);
  return component
    ? { component, changed_on: utcDateOf(item.commit), marker: itemMarker(item), removal: item.deleted }
    : null;
}

export function createNugetListing(client: HttpClient, base: string) {
  /** The index the listing in progress pages through; a restart reads it again. */
  let held: CatalogIndex | null = null;
  return async function listNuget(
    at: number | null,
    around: { followFrom: NugetPosition | null },
  ): Promise<ListPage<number, NugetPosition> | Unreachable> {
    if (at === null || held === null) {
      const index = await readCatalogIndex(client, base);
      if (isUnreachable(index)) return index;
      held = index;
    }
    const index = held;
    const p = at ?? 0;
    const items = p < index.pages.length ? await readCatalogPage(client, index.pages[p]!.url) : [];
    if (isUnreachable(items)) return items;
    const listed: ListedPackage[] = [];
    const hints: ChangeHint[] = [];
    for (const item of items) {
      // Items of commits not finished when the index was read are left to following.
      if (item.commit > index.commit) continue;
      if (item.deleted) {
        const h = itemHint(item);
        if (h) hints.push(h);
        continue;
      }
      const component = componentOf('nuget', item.id);
      if (component) listed.push({ component, marker: itemMarker(item) });
    }
    const done = p + 1 >= index.pages.length;
    if (done) held = null;
    return done
      ? { listed, hints, next: null, followFrom: around.followFrom ?? { commit: index.commit } }
      : { listed, hints, next: p + 1 };
  };
}
