import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../src/storage/store.js';
import type { TestStore } from './support/record.js';

/**
 * The storage contract, continued: the followers' cursors (DESIGN §8a). Like store-contract.ts,
 * every adapter must pass it unchanged.
 */
export function storeFollowContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (follow cursors) on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const fault = (kind: string, at: string) => ({ kind, detail: `${kind} seen`, at });

    beforeEach(async () => {
      t = await open();
      store = t.store;
    });
    afterEach(async () => {
      await t.dispose();
    });

    it('holds no cursor for a registry never followed, then the one committed, replaced by the next', async () => {
      expect(await store.followCursor('npm')).toBeNull();
      await store.setFollowCursor('npm', '{"seq":10}', '2026-03-01T10:00:00.000Z', { contiguous: true, faults: [] });
      await store.setFollowCursor('npm', '{"seq":25}', '2026-03-01T10:01:00.000Z', { contiguous: true, faults: [] });
      expect(await store.followCursor('npm')).toEqual({
        registry: 'npm',
        cursor: '{"seq":25}',
        updated_at: '2026-03-01T10:01:00.000Z',
        last_contiguous_at: '2026-03-01T10:01:00.000Z',
        faults_seen: 0,
        last_fault: null,
      });
      // Registries are kept apart.
      expect(await store.followCursor('pypi')).toBeNull();
    });

    it('keeps the last contiguous read across a break, counts every fault and keeps the newest', async () => {
      await store.setFollowCursor('composer', 'a', '2026-03-01T10:00:00.000Z', { contiguous: true, faults: [] });
      await store.setFollowCursor('composer', 'b', '2026-03-02T10:00:00.000Z', {
        contiguous: false,
        faults: [fault('unreachable', '2026-03-02T09:59:00.000Z'), fault('resync', '2026-03-02T10:00:00.000Z')],
      });
      expect(await store.followCursor('composer')).toMatchObject({
        cursor: 'b',
        updated_at: '2026-03-02T10:00:00.000Z',
        last_contiguous_at: '2026-03-01T10:00:00.000Z',
        faults_seen: 2,
        last_fault: fault('resync', '2026-03-02T10:00:00.000Z'),
      });
      // A healthy batch later moves the contiguous read on and leaves the last fault for the operator to see.
      await store.setFollowCursor('composer', 'c', '2026-03-02T10:05:00.000Z', { contiguous: true, faults: [] });
      expect(await store.followCursor('composer')).toMatchObject({
        cursor: 'c',
        last_contiguous_at: '2026-03-02T10:05:00.000Z',
        faults_seen: 2,
        last_fault: fault('resync', '2026-03-02T10:00:00.000Z'),
      });
    });

    it('keeps cursors for a store opened again, as after a restart, and a migration keeps them', async () => {
      await store.setFollowCursor('gem', '{"offset":1234}', '2026-03-01T10:00:00.000Z', {
        contiguous: true,
        faults: [],
      });
      const again = await t.reopen();
      await again.migrate();
      expect((await again.followCursor('gem'))?.cursor).toBe('{"offset":1234}');
    });
  });
}
