/**
 * Following Go's module index (research §1.4): `index?since=<the newest Timestamp read>`, each new
 * module version a hint dated by its Timestamp (when the proxy first saw it). The proxy never
 * forgets a version and the index has no deletions: an origin's deletion is GitHub's to show.
 * A row older than the position would be the index going backwards: a fault, and a re-listing.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, type RegistryFeed, regressedAt } from '../following/registry-follower.js';
import type { GoPosition } from './feed.js';
import { listGo, readIndex } from './list.js';

export function createGoFeed(client: HttpClient, base: string): RegistryFeed<GoPosition, GoPosition> {
  return {
    registry: 'golang',
    // The listing reads the index to its head: the listing gives the position.
    head: () => Promise.resolve(null),
    list: (at) => listGo(client, base, at),
    async follow(from) {
      const page = await readIndex(client, base, from);
      if ('unreachable' in page) return page;
      if (page.behind) return regressedAt(from, `the index answered ${page.behind.timestamp} for since ${from.since}`);
      // One hint per module: its newest version in the page.
      const newest = new Map<string, ChangeHint>();
      for (const row of page.fresh) {
        const component = componentOf('golang', row.path);
        if (component)
          newest.set(component.id, {
            component,
            changed_on: utcDateOf(row.timestamp),
            marker: row.version,
            removal: false,
          });
      }
      // A full page of rows all read before (one instant holding a page) cannot be paged past: stop rather than loop.
      return {
        hints: [...newest.values()],
        next: page.next,
        caughtUp: !page.full || page.fresh.length === 0,
        page: page.page,
      };
    },
  };
}
