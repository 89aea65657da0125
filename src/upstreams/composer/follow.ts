/**
 * Following Packagist (research §1.7): `metadata/changes.json?since=<timestamp>`, each action a
 * hint dated by its time, the answer's `timestamp` the next `since`. Packagist keeps 24 hours of
 * actions: a follower away longer is answered `resync` (so is one past 100,000 actions), which
 * is a fault: the package list is read again and following restarts from a fresh timestamp.
 * The starting timestamp is the one Packagist's own 400 offers to a request without `since`.
 */
import { utcDateOf } from '../../domain/calendar.js';
import type { HttpClient } from '../http/client.js';
import { unreachableOf } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, type RegistryFeed } from '../following/registry-follower.js';
import { packageOf, startingTimestamp, type ComposerPosition, CHANGES_FACTS } from './feed.js';
import { createComposerListing } from './list.js';

/** Packagist answers `resync` rather than more actions than this (PackageController). */
export const CHANGES_MOST = 100_000;

export function createComposerFeed(client: HttpClient, base: string): RegistryFeed<string, ComposerPosition> {
  const list = createComposerListing(client, base);
  const changes = CHANGES_FACTS;
  return {
    registry: 'composer',
    async head() {
      const answer = await client.get(`${base}/metadata/changes.json`, { accept: 'application/json', facts: changes });
      if (answer.kind === 'status' && answer.status === 400) {
        const since = startingTimestamp(answer.body);
        if (since !== null) return { since };
      }
      return answer.kind === 'facts'
        ? { unreachable: `${answer.url}: answered actions to a request without since, not a timestamp to start from` }
        : unreachableOf(answer);
    },
    list: (at) => list(at),
    async follow(from) {
      const answer = await client.get(`${base}/metadata/changes.json?since=${from.since}`, {
        accept: 'application/json',
        facts: changes,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      const { actions, timestamp } = answer.facts;
      if (actions.some((a) => a.type === 'resync'))
        return {
          hints: [],
          next: from,
          caughtUp: false,
          fault: {
            kind: 'resync',
            detail: `changes.json answered resync for since ${from.since} (its log keeps 24 hours)`,
          },
        };
      const newest = new Map<string, ChangeHint>();
      for (const a of actions) {
        const component = componentOf('composer', packageOf(a));
        if (component)
          newest.set(component.id, {
            component,
            changed_on: utcDateOf(new Date(a.time * 1000)),
            marker: String(a.time),
            removal: a.type === 'delete',
          });
      }
      return {
        hints: [...newest.values()],
        next: { since: timestamp },
        caughtUp: true,
        page: { asked: CHANGES_MOST, rows: actions.length },
      };
    },
  };
}
