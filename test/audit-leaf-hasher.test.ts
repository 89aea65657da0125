import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, storeLogSource, type LogSource } from '../src/operations/audit-log.js';
import type { HeadBlock } from '../src/notary/head.js';
import type { Store } from '../src/storage/store.js';
import { githubObservation, sqliteTestStore, testNotary, type TestStore } from './support/record.js';

/**
 * An audit hashes large pages of leaves on a second thread (notary/leaf-hasher.ts). It must reach
 * the same verdict as hashing on the calling thread, whatever the pages, and still refuse a log
 * one of whose leaves was altered.
 */
describe('the audit with leaf hashes from a second thread', () => {
  let t: TestStore;
  let store: Store;
  let head: HeadBlock;
  const notary = testNotary();

  beforeEach(async () => {
    t = await sqliteTestStore();
    store = t.store;
    await store.initialiseLog(notary.seal);
    for (let day = 1; day <= 5; day++) {
      await store.appendObservations(
        Array.from({ length: 23 }, (_, i) => githubObservation(`acme/r${i}`, `2025-03-0${day}`, 'alive')),
        notary.seal,
      );
    }
    head = (await store.latestHead())!;
  });
  afterEach(async () => {
    await t.dispose();
  });

  /** The store's leaves in pages of the given sizes, in turn; `alter` may change one leaf's bytes. */
  async function paged(sizes: number[], alter?: { leaf: number }): Promise<LogSource> {
    const all = await store.leafBytes(0, head.tree_size);
    const pages: Uint8Array[][] = [];
    for (let at = 0, k = 0; at < all.length; k++) {
      const size = sizes[k % sizes.length]!;
      pages.push(
        all.slice(at, at + size).map((bytes, i) => {
          if (at + i !== alter?.leaf) return bytes;
          const changed = new Uint8Array(bytes);
          changed[changed.length - 2] = changed[changed.length - 2]! ^ 1;
          return changed;
        }),
      );
      at += size;
    }
    return {
      checkpoint: head.checkpoint,
      // A page at a time, as a source reading a file or a service hands them over.
      leaves: (async function* () {
        for (const page of pages) yield await Promise.resolve(page);
      })(),
      heads: storeLogSource(store, head).heads,
    };
  }

  it('gives the report hashing on the calling thread gives, for any paging', async () => {
    const alone = await auditLog(storeLogSource(store, head), notary.verifier, notary.origin, {
      parallelPage: Infinity,
    });
    expect(alone).toMatchObject({ tree_size: 115, heads_checked: 6 });
    for (const sizes of [[115], [1], [7, 30, 2], [64, 64]]) {
      expect(await auditLog(await paged(sizes), notary.verifier, notary.origin, { parallelPage: 1 })).toEqual(alone);
      // Pages below the threshold stay on this thread, the rest go to the other: both in one audit.
      expect(await auditLog(await paged(sizes), notary.verifier, notary.origin, { parallelPage: 8 })).toEqual(alone);
    }
  });

  it('refuses a log with one altered leaf, hashed on the second thread', async () => {
    await expect(
      auditLog(await paged([40], { leaf: 77 }), notary.verifier, notary.origin, { parallelPage: 1 }),
    ).rejects.toThrow(/claims root|give root/);
  });
});
