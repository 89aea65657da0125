import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followPass } from '../src/upstreams/following/follow-pass.js';
import { FOLLOWED_REGISTRIES, type FollowBatch, type FollowedRegistry } from '../src/upstreams/following/follower.js';
import { DAY, pass, startFollowed, type Followed } from './support/followed-registries.js';
import { postgresTestStore, sqliteTestStore, type TestStore, endToEndBackends } from './support/record.js';

/**
 * A follower killed mid-pass (its handler dies with the batch in hand, before the cursor is
 * committed) and started again as a new instance on a store opened again: what the two runs
 * committed is exactly what one uninterrupted follower says, nothing lost, nothing twice. Run on
 * both backends: the cursor is what survives the restart.
 */
const START = Date.parse('2026-01-05T12:00:00Z');
let f: Followed;
beforeAll(async () => {
  f = await startFollowed({ at: new Date(START).toISOString() });
});
afterAll(() => f.close());

/** What a scheduler acts on: each batch's hints and listing, in order. */
const said = (batches: FollowBatch[]) =>
  batches.flatMap((b) => [
    ...b.listed.map((l) => `listed ${l.component.id} ${l.marker}`),
    ...b.hints.map((h) => `hint ${h.component.id} ${h.changed_on} ${h.removal}`),
  ]);

class Killed extends Error {}

/** Hands batches to `handled` until the `dieAt`-th, which kills the process before it is handled. */
function dyingHandler(handled: FollowBatch[], dieAt: number) {
  let seen = 0;
  return (batch: FollowBatch) => {
    if (++seen === dieAt) return Promise.reject(new Killed());
    handled.push(batch);
    return Promise.resolve();
  };
}

// npm in small pages, so a backfill and a day's following are both several batches.
const options = { npm: { window: 40, pageSize: 500 } };

describe.each(
  endToEndBackends([
    ['sqlite', sqliteTestStore],
    ['postgres', postgresTestStore],
  ] as const),
)('a follower restarted on %s', (_backend, open) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(() => t.dispose());

  it.each(FOLLOWED_REGISTRIES)(
    '%s: resumes at its committed cursor with nothing lost or doubled',
    async (registry: FollowedRegistry) => {
      f.now.at = new Date(START);
      const reference: FollowBatch[] = [];
      const ref = f.follower(registry, options);
      const refCursor = { value: null as string | null };
      await pass(ref, refCursor, reference);

      const clock = () => f.now.at;
      const handled: FollowBatch[] = [];
      await expect(followPass(f.follower(registry, options), t.store, dyingHandler(handled, 3), clock)).rejects.toThrow(
        Killed,
      );
      expect(handled).toHaveLength(2);
      const again = await t.reopen();
      await followPass(f.follower(registry, options), again, (b) => Promise.resolve(void handled.push(b)), clock);
      expect(said(handled)).toEqual(said(reference));

      // Most of a day on (within Packagist's 24-hour log): killed at the first batch of following, then resumed.
      f.now.at = new Date(START + 0.9 * DAY);
      const refFollow = await pass(ref, refCursor);
      const followed: FollowBatch[] = [];
      await expect(followPass(f.follower(registry, options), again, dyingHandler(followed, 1), clock)).rejects.toThrow(
        Killed,
      );
      await followPass(
        f.follower(registry, options),
        await t.reopen(),
        (b) => Promise.resolve(void followed.push(b)),
        clock,
      );
      expect(said(followed)).toEqual(said(refFollow));
      expect(followed.flatMap((b) => b.hints).length).toBeGreaterThan(10);
      const stored = await again.followCursor(registry);
      expect(stored?.cursor).toBe(refCursor.value);
      expect(stored?.last_contiguous_at).toBe(new Date(START + 0.9 * DAY).toISOString());
    },
  );
});
