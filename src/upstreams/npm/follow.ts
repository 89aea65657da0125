/**
 * Following npm's replication feed (research §1.1; cdklabs/construct-hub
 * docs/npm-sync-protocol.md@0ab00ff39bc2): `_changes?since=<seq>` page by page, each row a hint
 * dated the day it was read (rows carry no time). The feed's known gaps:
 * - late insertion: entries appear behind a last_seq already returned. The first step of every
 *   pass re-reads a trailing window of TRAILING_WINDOW seq (≈ 3 hours at 80,000 seq a day: the
 *   latest delay ConstructHub reports is ~2 hours) and hints the entries it had not seen; a
 *   weekly deep re-listing (NPM_RELIST_DAYS) covers delays past the window.
 * - head regression: the root's update_seq (or a page's last_seq) behind the cursor. Entries
 *   above the new head are gone and new ones reuse numbers below the cursor, so following on would
 *   skip them: it is a fault, never progress, and the registry is re-listed from the new head.
 * - lost events: a change that never appears at any seq. Nothing in the feed shows it ("None
 *   possible", ConstructHub): the package is hinted again by its next change, and the sweep of
 *   held packages (DESIGN §8a) dates it meanwhile.
 */
import type { HttpClient } from '../http/client.js';
import { isUnreachable, unreachableOf, type Unreachable } from '../following/feed-client.js';
import type { ChangeHint } from '../following/follower.js';
import { componentOf, readOn, type RegistryFeed } from '../following/registry-follower.js';
import { advance, positionAt, type ChangeRow, type NpmPosition, ROOT_FACTS, CHANGES_PAGE_FACTS } from './feed.js';
import { listNpm, NPM_PAGE } from './list.js';

export const TRAILING_WINDOW = 10_000;
export const NPM_RELIST_DAYS = 7;

export interface NpmFeedOptions {
  /** Seq re-read behind the cursor once a pass; at most a page. */
  window?: number;
  pageSize?: number;
  now: () => Date;
}

async function root(client: HttpClient, base: string): Promise<{ update_seq: number } | Unreachable> {
  const answer = await client.get(`${base}/registry/`, {
    accept: 'application/json',
    facts: ROOT_FACTS,
  });
  return answer.kind === 'facts' ? answer.facts : unreachableOf(answer);
}

export function createNpmFeed(
  client: HttpClient,
  base: string,
  options: NpmFeedOptions,
): RegistryFeed<number, NpmPosition> {
  const pageSize = options.pageSize ?? NPM_PAGE;
  const window = options.window ?? TRAILING_WINDOW;
  if (window > pageSize) throw new Error('the trailing window must fit in one page');
  const hint = (row: ChangeRow): ChangeHint | null => {
    const component = componentOf('npm', row.id);
    return component ? { component, changed_on: readOn(options.now), marker: row.rev, removal: row.deleted } : null;
  };
  /** The head read at the first step of the pass: the pass is caught up once past it. */
  let passHead = 0;
  return {
    registry: 'npm',
    // Only the seq is progress: a page that does not move it can still mark seq of the window seen.
    progressOf: (p) => p.seq,
    async head() {
      const r = await root(client, base);
      return isUnreachable(r) ? r : positionAt(r.update_seq, window);
    },
    // After a fault the feed's numbers cannot be trusted: its tombstones are hinted as removals.
    list: (at, around) =>
      listNpm(client, base, at, around.reason !== 'backfill' && around.reason !== 'periodic', options.now, pageSize),
    async follow(from, first) {
      if (first) {
        const r = await root(client, base);
        if (isUnreachable(r)) return r;
        if (r.update_seq < from.seq)
          return {
            hints: [],
            next: from,
            caughtUp: false,
            fault: {
              kind: 'head_regression',
              detail: `the feed's update_seq ${r.update_seq} is behind the cursor's ${from.seq}: entries above it are gone`,
            },
          };
        passHead = r.update_seq;
      }
      const since = first ? Math.max(0, from.seq - window) : from.seq;
      const answer = await client.get(`${base}/registry/_changes?since=${since}&limit=${pageSize}`, {
        accept: 'application/json',
        facts: CHANGES_PAGE_FACTS,
      });
      if (answer.kind !== 'facts') return unreachableOf(answer);
      const page = answer.facts;
      if (page.last_seq < since)
        return {
          hints: [],
          next: from,
          caughtUp: false,
          fault: { kind: 'head_regression', detail: `a page answered last_seq ${page.last_seq} for since ${since}` },
        };
      const { position, fresh, late } = advance(from, page);
      const hints = [...late, ...fresh].map(hint).filter((h): h is ChangeHint => h !== null);
      return {
        hints,
        next: position,
        caughtUp: page.results.length < pageSize || position.seq >= passHead,
        page: { asked: pageSize, rows: page.results.length },
        ...(late.length > 0
          ? {
              notes: [
                {
                  kind: 'late_insertion' as const,
                  detail: `${late.length} entries appeared behind last_seq ${from.seq}, found by the trailing window`,
                  at: options.now().toISOString(),
                },
              ],
            }
          : {}),
      };
    },
  };
}
