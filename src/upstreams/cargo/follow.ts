/**
 * Following crates.io (research §1.3): the updates feed static.crates.io/rss/updates.xml holds the
 * versions of the past 60 minutes, but at least the newest 100, so it is a window: polled often
 * enough, each new item is a hint dated by its pubDate. When its oldest item is newer than the
 * position and it holds a full 100, versions between may have left it: the follower fell out of
 * the window, a fault, and the registry is listed from the daily dump, which hints every crate
 * updated after the last dump diffed. What changed after that dump is in the next one: the listing
 * is repeated daily (CRATES_RELIST_DAYS), which also hints yanks, which the feed never reports.
 * Each step also follows OSV's export of RustSec's advisories (advisories-feed.ts), so a crate an
 * advisory declares unmaintained is read the day the advisory is published.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { isUnreachable, unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, type RegistryFeed } from '../following/registry-follower.js';
import { followAdvisories, initialPosition, MODIFIED_IDS_FACTS } from './advisories-feed.js';
import { type Publication, UPDATES_FACTS } from './feed.js';
import { createCratesListing, type CratesPosition } from './list.js';

/** sync_updates_feed.rs: NUM_ITEMS. */
export const FEED_MINIMUM = 100;
export const CRATES_RELIST_DAYS = 1;

const key = (p: Publication) => `${p.name}@${p.version}`;

async function readFeed(client: HttpClient, base: string): Promise<Publication[] | Unreachable> {
  const answer = await client.get(`${base}/rss/updates.xml`, {
    accept: 'application/rss+xml',
    body: 'text',
    facts: UPDATES_FACTS,
  });
  return answer.kind === 'facts' ? [...answer.facts].sort((a, b) => a.at - b.at) : unreachableOf(answer);
}

function positionAfter(
  items: Publication[],
  from: { since: number; at_since: string[] },
  dump: number | null,
): CratesPosition {
  const newest = items.at(-1);
  if (!newest || newest.at < from.since) return { ...from, dump };
  const atNewest = items.filter((p) => p.at === newest.at).map(key);
  return {
    since: newest.at,
    at_since: newest.at === from.since ? [...new Set([...from.at_since, ...atNewest])] : atNewest,
    dump,
  };
}

/** Where OSV's export is read from, over a client of its own (its own host and budget). */
export interface OsvExport {
  client: HttpClient;
  base: string;
}

/** The advisories' first position, or null when the export cannot be read now (the first step tries again). */
async function advisoriesHead(osv: OsvExport): Promise<CratesPosition['advisories']> {
  const answer = await osv.client.get(`${osv.base}/crates.io/modified_id.csv`, {
    accept: 'text/csv',
    body: 'text',
    facts: MODIFIED_IDS_FACTS,
  });
  return answer.kind === 'facts' ? initialPosition(answer.facts.entries) : null;
}

export function createCratesFeed(
  client: HttpClient,
  base: string,
  osv: OsvExport,
  now: () => Date,
): RegistryFeed<string, CratesPosition> {
  const list = createCratesListing(client, base);
  return {
    registry: 'cargo',
    async head() {
      const items = await readFeed(client, base);
      if (isUnreachable(items)) return items;
      return { ...positionAfter(items, { since: 0, at_since: [] }, null), advisories: await advisoriesHead(osv) };
    },
    list,
    async follow(from) {
      const items = await readFeed(client, base);
      if (isUnreachable(items)) return items;
      const seen = new Set(from.at_since);
      const fresh = items.filter((p) => p.at > from.since || (p.at === from.since && !seen.has(key(p))));
      const newest = new Map<string, ChangeHint>();
      for (const p of fresh) {
        const component = componentOf('cargo', p.name);
        if (component)
          newest.set(component.id, {
            component,
            changed_on: utcDateOf(new Date(p.at)),
            marker: p.version,
            removal: false,
          });
      }
      const hints = [...newest.values()];
      const oldest = items[0];
      if (oldest && oldest.at > from.since && items.length >= FEED_MINIMUM)
        return {
          hints,
          next: from,
          caughtUp: false,
          fault: {
            kind: 'fell_out_of_window',
            detail: `the updates feed now starts at ${new Date(oldest.at).toISOString()}, after the position ${new Date(from.since).toISOString()}`,
          },
        };
      // The export never stops crates.io's step: failing, its position stays and a note says so.
      const advisories = await followAdvisories(osv.client, osv.base, from.advisories ?? null, now);
      return {
        hints: [...hints, ...advisories.hints],
        next: { ...positionAfter(items, from, from.dump), advisories: advisories.next },
        caughtUp: advisories.done,
        notes: advisories.notes,
      };
    },
  };
}
