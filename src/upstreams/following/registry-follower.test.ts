import { describe, expect, it } from 'vitest';
import type { FollowBatch } from './follower.js';
import { RegistryFollower, type FollowStep, type ListPage, type RegistryFeed } from './registry-follower.js';

/**
 * The follower's own guards, whatever the registry: a scripted feed (a real RegistryFeed whose
 * answers the test writes) that answers as a hostile upstream would. Each guard ends the pass at
 * once with the cursor it had, so the feed is asked a bounded number of times.
 */
const NOW = new Date('2026-03-02T10:00:00Z');

function scripted(
  list: (at: number | null) => ListPage<number, number>,
  follow: (from: number) => FollowStep<number>,
): RegistryFeed<number, number> & { asked: number } {
  const feed = {
    registry: 'pypi' as const,
    asked: 0,
    head: () => Promise.resolve(0),
    list: (at: number | null) => {
      feed.asked++;
      return Promise.resolve(list(at));
    },
    follow: (from: number) => {
      feed.asked++;
      return Promise.resolve(follow(from));
    },
  };
  return feed;
}

async function pass(feed: RegistryFeed<number, number>, cursor: string | null, maxBatches?: number) {
  const batches: FollowBatch[] = [];
  const follower = new RegistryFollower(feed, { now: () => NOW, ...(maxBatches ? { maxBatches } : {}) });
  for await (const b of follower.pass(cursor)) batches.push(b);
  return batches;
}

const following = (at: number) =>
  JSON.stringify({ v: 1, state: 'following', follow: at, listed_at: NOW.toISOString() });

describe('the follower refuses what would bend it', () => {
  it('a listing page that starts where the last one did is a stuck cursor, not a loop', async () => {
    const feed = scripted(
      () => ({ listed: [], hints: [], next: 7 }),
      () => ({ hints: [], next: 0, caughtUp: true }),
    );
    const batches = await pass(feed, null);
    expect(feed.asked).toBe(2);
    expect(batches.at(-1)!.faults.map((f) => f.kind)).toEqual(['stuck_cursor']);
    expect(JSON.parse(batches.at(-1)!.cursor)).toMatchObject({ state: 'listing', at: 7 });
  });

  it('a step that is not the last but leaves the position is a stuck cursor after the first step', async () => {
    const feed = scripted(
      () => ({ listed: [], hints: [], next: null }),
      (from) => ({ hints: [], next: from, caughtUp: false }),
    );
    const batches = await pass(feed, following(40));
    // The first step may re-read behind the position; the second must move it.
    expect(feed.asked).toBe(2);
    expect(batches.at(-1)).toMatchObject({ caught_up: true, contiguous: false, cursor: following(40) });
    expect(batches.at(-1)!.faults[0]!.kind).toBe('stuck_cursor');
  });

  it('a page with more rows than asked is refused unread: its hints are not handed out', async () => {
    const feed = scripted(
      () => ({ listed: [], hints: [], next: null }),
      (from) => ({
        hints: [{ component: { kind: 'pypi', id: 'flood' }, changed_on: '2026-03-02', marker: null, removal: false }],
        next: from + 100,
        caughtUp: false,
        page: { asked: 50, rows: 100 },
      }),
    );
    const batches = await pass(feed, following(40));
    expect(feed.asked).toBe(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ hints: [], cursor: following(40) });
    expect(batches[0]!.faults[0]).toMatchObject({ kind: 'oversized_page' });
    expect(batches[0]!.faults[0]!.detail).toContain('100 rows for a request of at most 50');
  });

  it('a feed that always has more ends the pass at the batch bound, committed, for the next pass to continue', async () => {
    const feed = scripted(
      () => ({ listed: [], hints: [], next: null }),
      (from) => ({ hints: [], next: from + 1, caughtUp: false, page: { asked: 1, rows: 1 } }),
    );
    const batches = await pass(feed, following(0), 25);
    expect(batches).toHaveLength(25);
    expect(batches.every((b) => b.faults.length === 0)).toBe(true);
    expect(JSON.parse(batches.at(-1)!.cursor)).toMatchObject({ follow: 25 });
  });
});
