import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { merkleTreeHash } from '../src/notary/merkle.js';
import type { Store, WitnessRecord } from '../src/storage/store.js';
import { githubObservation, testNotary, type TestStore } from './support/record.js';

/**
 * The store's part in the tlog-tiles routes and the witness client: ranges of perfect-subtree
 * hashes read as one (a tile), and each witness's latest answer. Run over both backends.
 */
export function storeWitnessContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract on ${backend}: tiles and witnesses`, () => {
    let t: TestStore;
    let store: Store;
    const notary = testNotary();

    beforeEach(async () => {
      t = await open();
      store = t.store;
      await store.initialiseLog(notary.seal);
    });
    afterEach(async () => {
      await t.dispose();
    });

    it('reads a range of subtree hashes at any level, and fewer at the tree’s right edge', async () => {
      const observations = Array.from({ length: 600 }, (_, i) =>
        githubObservation(`acme/r${i}`, '2025-01-01', 'alive'),
      );
      await store.appendObservations(observations, notary.seal);
      const leaves = (await store.leaves(0, 600)).map((l) => l.hash);
      // Level 0: leaf hashes, 256 of them as a tile asks, and only the 88 held past 512.
      expect(await store.nodeHashRange(0, 256, 256)).toEqual(leaves.slice(256, 512));
      expect(await store.nodeHashRange(0, 512, 256)).toEqual(leaves.slice(512, 600));
      // Level 8 (tile level 1) is stored: two complete subtrees of 256 leaves, the third not yet.
      expect(await store.nodeHashRange(8, 0, 256)).toEqual([
        merkleTreeHash(leaves.slice(0, 256)),
        merkleTreeHash(leaves.slice(256, 512)),
      ]);
      // A level below the stored ones is hashed from the leaves; a stored one read as a range.
      expect(await store.nodeHashRange(3, 70, 5)).toEqual(
        [70, 71, 72, 73, 74].map((i) => merkleTreeHash(leaves.slice(i * 8, i * 8 + 8))),
      );
      expect(await store.nodeHashRange(6, 1, 9)).toEqual(
        Array.from({ length: 8 }, (_, k) => merkleTreeHash(leaves.slice((k + 1) * 64, (k + 2) * 64))),
      );
      expect(await store.nodeHashRange(8, 3, 10)).toEqual([]);
      expect(await store.nodeHashRange(0, 600, 1)).toEqual([]);
    });

    it('keeps each witness’s latest answer, replacing the one before', async () => {
      const cosigned: WitnessRecord = {
        witness: 'w1.example/w',
        cosigned: { tree_size: 12, note: 'note\n\n— x y\n', timestamp: 1_700_000_000 },
        refusal: null,
        updated_at: '2026-11-29T10:00:00.000Z',
      };
      const refused: WitnessRecord = {
        witness: 'w0.example/w',
        cosigned: null,
        refusal: { tree_size: 12, status: null, reason: 'unreachable: ECONNREFUSED', at: '2026-11-29T10:00:01.000Z' },
        updated_at: '2026-11-29T10:00:01.000Z',
      };
      await store.putWitnessRecord(cosigned);
      await store.putWitnessRecord(refused);
      expect(await store.witnessRecords()).toEqual([refused, cosigned]);
      const later: WitnessRecord = {
        ...cosigned,
        refusal: { tree_size: 20, status: 422, reason: 'inconsistent', at: '2026-11-29T11:00:00.000Z' },
        updated_at: '2026-11-29T11:00:00.000Z',
      };
      await store.putWitnessRecord(later);
      expect(await store.witnessRecords()).toEqual([refused, later]);
    });
  });
}
