import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeLeaf } from '../src/notary/leaf.js';
import type { Store } from '../src/storage/store.js';
import { githubObservation, testNotary, type TestStore } from './support/record.js';

/**
 * What the storage layout must keep, whatever it is: an answer shows a leaf's evidence exactly as
 * the leaf holds it, and the record reads back the same however it was written.
 */
export function storeLayoutContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (layout) on ${backend}`, () => {
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

    it('gives back evidence in its leaf’s key order, whatever order the reader built it in', async () => {
      const built = githubObservation('acme/order', '2025-03-01', 'alive', {
        evidence: { http_status: 200, pushed_at: '2025-02-01T00:00:00Z', archived: false, default_branch: 'main' },
      });
      const appended = (await store.appendObservations([built], notary.seal)).observations[0]!;
      const leafEvidence = (decodeLeaf((await store.leaf(appended.leaf_index))!.bytes) as { evidence: object })
        .evidence;
      const inLeaf = JSON.stringify(leafEvidence);
      expect(Object.keys(leafEvidence)).toEqual(['archived', 'default_branch', 'http_status', 'pushed_at']);
      const ref = { kind: 'github' as const, id: 'acme/order' };
      expect(JSON.stringify(appended.evidence)).toBe(inLeaf);
      expect(JSON.stringify((await store.observationsOf(ref))[0]!.evidence)).toBe(inLeaf);
      expect(JSON.stringify((await store.seriesAt(ref, '2025-03-02')).reading!.evidence)).toBe(inLeaf);
      expect(JSON.stringify((await store.observationAt(ref, appended.leaf_index))!.evidence)).toBe(inLeaf);
    });
  });
}
