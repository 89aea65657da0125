/**
 * One pass of a follower against the store: resume from the committed cursor, hand each batch to
 * the caller (a scheduler makes the hinted packages due), and commit the batch's cursor only once
 * the caller is done with it. A process killed between the two re-reads that batch on its next
 * pass, never skips it; a batch committed is never handed out again.
 */
import type { Store } from '../../storage/store.js';
import type { Follower, FollowBatch } from './follower.js';

export interface PassSummary {
  batches: number;
  hints: number;
  listed: number;
  faults: FollowBatch['faults'];
}

export async function followPass(
  follower: Follower,
  store: Pick<Store, 'followCursor' | 'setFollowCursor'>,
  handle: (batch: FollowBatch) => Promise<void>,
  clock: () => Date,
): Promise<PassSummary> {
  const committed = await store.followCursor(follower.registry);
  const summary: PassSummary = { batches: 0, hints: 0, listed: 0, faults: [] };
  for await (const batch of follower.pass(committed?.cursor ?? null)) {
    await handle(batch);
    await store.setFollowCursor(follower.registry, batch.cursor, clock().toISOString(), {
      contiguous: batch.contiguous,
      faults: batch.faults,
    });
    summary.batches++;
    summary.hints += batch.hints.length;
    summary.listed += batch.listed.length;
    summary.faults.push(...batch.faults);
  }
  return summary;
}
