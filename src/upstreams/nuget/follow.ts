/**
 * Following nuget.org's catalog (research §1.5): the one feed whose documentation promises a
 * client "can be sure to never miss any package events" when its cursor is a commitTimeStamp
 * read from the catalog (never the client's clock). A step reads the index, then every page whose
 * commitTimeStamp is after the cursor, and takes the items after the cursor up to the index's own
 * commitTimeStamp: a page read while a commit is being written can show part of it, and later gain
 * the rest under the same timestamp, so items newer than the index's last complete commit wait
 * for the next step instead of moving the cursor past what is still being written.
 * An index whose commitTimeStamp is behind the cursor is a fault, and a re-listing.
 */
import type { HttpClient } from '../http/client.js';
import { isUnreachable } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { type RegistryFeed, regressedAt } from '../following/registry-follower.js';
import { createNugetListing, itemHint, readCatalogIndex, readCatalogPage, type NugetPosition } from './list.js';

export function createNugetFeed(client: HttpClient, base: string): RegistryFeed<number, NugetPosition> {
  const list = createNugetListing(client, base);
  return {
    registry: 'nuget',
    async head() {
      const index = await readCatalogIndex(client, base);
      return isUnreachable(index) ? index : { commit: index.commit };
    },
    list,
    async follow(from) {
      const index = await readCatalogIndex(client, base);
      if (isUnreachable(index)) return index;
      if (index.commit < from.commit)
        return regressedAt(from, `the catalog's commitTimeStamp ${index.commit} is behind the cursor ${from.commit}`);
      const newest = new Map<string, ChangeHint>();
      for (const page of index.pages) {
        if (page.commit <= from.commit) continue;
        const items = await readCatalogPage(client, page.url);
        if (isUnreachable(items)) return items;
        for (const item of items) {
          if (item.commit <= from.commit || item.commit > index.commit) continue;
          const h = itemHint(item);
          if (h) newest.set(h.component.id, h);
        }
      }
      return { hints: [...newest.values()], next: { commit: index.commit }, caughtUp: true };
    },
  };
}
