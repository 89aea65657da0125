import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leafHash, fromBase64, toBase64 } from '../src/notary/hash.js';
import { decodeLeaf, encodeLeaf } from '../src/notary/leaf.js';
import {
  assembleProof,
  consistencyProofCoords,
  inclusionProofCoords,
  merkleTreeHash,
  verifyConsistency,
  verifyInclusion,
  type NodeCoord,
} from '../src/notary/merkle.js';
import { verifyHeadChain } from '../src/notary/head.js';
import { observationLeafRecord } from '../src/domain/observation.js';
import { auditLog, storeLogSource } from '../src/operations/audit-log.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { OTHER_WRITER_LAG_MS, type Store } from '../src/storage/store.js';
import { DuplicateObservationError, LogInvariantError } from '../src/storage/store-errors.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendProcess, claimProcess, githubObservation, testNotary, type TestStore } from './support/record.js';

/**
 * The storage contract: every adapter must pass this suite unchanged. It is what lets the rest of
 * Tended treat SQLite and PostgreSQL as one store.
 */
export function storeContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const notary = testNotary();

    beforeEach(async () => {
      t = await open();
      store = t.store;
    });
    afterEach(async () => {
      await t.dispose();
    });

    /** A proof assembled from the nodes the store keeps, as the chain routes assemble it. */
    const storedProof = async (covers: NodeCoord[][]) => {
      const coords = covers.flat();
      const hashes = await store.nodeHashes(coords);
      return assembleProof(covers, (c) => hashes[coords.findIndex((x) => x.level === c.level && x.index === c.index)]!);
    };
    const allLeafHashes = async () => (await store.leaves(0, await store.treeSize())).map((l) => l.hash);

    it('names its backend, answers ping, and migrating again changes nothing', async () => {
      expect(store.backend).toBe(backend);
      await store.ping();
      await store.migrate();
      expect(await store.treeSize()).toBe(0);
    });

    it('seals one genesis head for the empty log, once', async () => {
      const first = await store.initialiseLog(notary.seal);
      const again = await store.initialiseLog(notary.seal);
      expect(first).toMatchObject({ tree_size: 0, prev_head_hash: null, root_hash: toBase64(merkleTreeHash([])) });
      expect(again.head_hash).toBe(first.head_hash);
      expect((await store.heads(0, 10)).length).toBe(1);
    });

    it('appends observations as leaves whose exact bytes and hashes it keeps, and reads them back', async () => {
      await store.initialiseLog(notary.seal);
      const obs = [
        githubObservation('acme/widget', '2025-01-01', 'alive'),
        githubObservation('acme/widget', '2025-01-02', 'dormant'),
      ];
      const { observations, head } = await store.appendObservations(obs, notary.seal);
      expect(observations.map((o) => o.leaf_index)).toEqual([0, 1]);
      expect(head.tree_size).toBe(2);
      const read = await store.observationsOf({ kind: 'github', id: 'acme/widget' });
      expect(read).toEqual(observations);
      const leaf = (await store.leaf(1))!;
      const record = decodeLeaf(leaf.bytes) as Record<string, unknown>;
      expect(record).toEqual(observationLeafRecord(obs[1]!, leaf.logged_at));
      expect(Buffer.from(leaf.bytes).equals(Buffer.from(encodeLeaf(record)))).toBe(true);
      expect(toBase64(leaf.hash)).toBe(toBase64(leafHash(leaf.bytes)));
      expect(head.root_hash).toBe(toBase64(merkleTreeHash(await allLeafHashes())));
      expect(await store.leaf(2)).toBeNull();
    });

    it('chains each head to the one before and keeps logged_at from going backwards', async () => {
      await store.initialiseLog(notary.seal);
      for (let day = 1; day <= 5; day++) {
        await store.appendObservations([githubObservation('acme/widget', `2025-01-0${day}`, 'alive')], notary.seal);
      }
      const heads = await store.heads(0, 100);
      expect(heads.map((h) => h.tree_size)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(() => verifyHeadChain(heads, notary.verifier, notary.origin)).not.toThrow();
      expect((await store.latestHead())!.head_hash).toBe(heads.at(-1)!.head_hash);
      const loggedAt = (await store.leaves(0, 5)).map((l) => l.logged_at);
      expect([...loggedAt].sort()).toEqual(loggedAt);
    });

    it('refuses a second observation of a component on one date and leaves the log as it was', async () => {
      await store.initialiseLog(notary.seal);
      await store.appendObservations([githubObservation('acme/widget', '2025-01-01', 'alive')], notary.seal);
      const before = await store.latestHead();
      await expect(
        store.appendObservations(
          [
            githubObservation('acme/other', '2025-01-01', 'alive'),
            githubObservation('acme/widget', '2025-01-01', 'dormant'),
          ],
          notary.seal,
        ),
      ).rejects.toBeInstanceOf(DuplicateObservationError);
      await expect(
        store.appendObservations(
          [githubObservation('acme/dup', '2025-01-01', 'alive'), githubObservation('acme/dup', '2025-01-01', 'alive')],
          notary.seal,
        ),
      ).rejects.toBeInstanceOf(DuplicateObservationError);
      expect(await store.treeSize()).toBe(1);
      expect(await store.latestHead()).toEqual(before);
      expect(await store.observationsOf({ kind: 'github', id: 'acme/other' })).toEqual([]);
    });

    it('writes nothing when a fault strikes halfway through an append', async () => {
      await store.initialiseLog(notary.seal);
      await store.appendObservations([githubObservation('acme/widget', '2025-01-01', 'alive')], notary.seal);
      const before = { size: await store.treeSize(), head: await store.latestHead() };
      const bad = { ...githubObservation('acme/widget', '2025-01-03', 'alive'), evidence: { ratio: 0.5 } };
      await expect(
        store.appendObservations([githubObservation('acme/widget', '2025-01-02', 'alive'), bad], notary.seal),
      ).rejects.toThrow();
      await expect(
        store.appendObservations([githubObservation('acme/widget', '2025-01-02', 'alive')], () => {
          throw new Error('the signer failed');
        }),
      ).rejects.toThrow('the signer failed');
      expect(await store.treeSize()).toBe(before.size);
      expect(await store.latestHead()).toEqual(before.head);
      expect(await store.leaves(0, 10)).toHaveLength(1);
      expect(await store.observationsOf({ kind: 'github', id: 'acme/widget' })).toHaveLength(1);
      const { observations } = await store.appendObservations(
        [githubObservation('acme/widget', '2025-01-02', 'alive')],
        notary.seal,
      );
      expect(observations[0]!.leaf_index).toBe(1);
    });

    it('takes a correction on the same date, pointing at an observation of the same component only', async () => {
      await store.initialiseLog(notary.seal);
      const { observations } = await store.appendObservations(
        [
          githubObservation('acme/widget', '2025-01-01', 'deleted'),
          githubObservation('acme/other', '2025-01-01', 'alive'),
        ],
        notary.seal,
      );
      const correction = {
        ...githubObservation('acme/widget', '2025-01-01', 'alive'),
        corrects: observations[0]!.leaf_index,
      };
      const {
        observations: [stored],
      } = await store.appendObservations([correction], notary.seal);
      expect(stored!.corrects).toBe(0);
      const wrong = {
        ...githubObservation('acme/widget', '2025-01-02', 'alive'),
        corrects: observations[1]!.leaf_index,
      };
      await expect(store.appendObservations([wrong], notary.seal)).rejects.toBeInstanceOf(LogInvariantError);
      const second = {
        ...githubObservation('acme/widget', '2025-01-01', 'dormant'),
        corrects: observations[0]!.leaf_index,
      };
      await expect(store.appendObservations([second], notary.seal)).rejects.toBeInstanceOf(DuplicateObservationError);
      expect(await store.observationsOf({ kind: 'github', id: 'acme/widget' })).toHaveLength(2);
    });

    it('serves stored subtree hashes from which every inclusion and consistency proof verifies', async () => {
      await store.initialiseLog(notary.seal);
      for (let batch = 0; batch < 6; batch++) {
        const obs = Array.from({ length: batch + 2 }, (_, i) =>
          githubObservation(`acme/r${batch}-${i}`, '2025-03-01', 'alive'),
        );
        await store.appendObservations(obs, notary.seal);
      }
      const size = await store.treeSize();
      expect(size).toBe(27);
      const hashes = await allLeafHashes();
      const heads = await store.heads(1, 100);
      for (const head of heads) {
        const root = fromBase64(head.root_hash);
        expect(toBase64(merkleTreeHash(hashes.slice(0, head.tree_size)))).toBe(head.root_hash);
        for (let index = 0; index < head.tree_size; index++) {
          const proof = await storedProof(inclusionProofCoords(index, head.tree_size));
          expect(verifyInclusion(hashes[index]!, index, head.tree_size, proof, root)).toBe(true);
        }
      }
      const last = fromBase64(heads.at(-1)!.root_hash);
      for (const older of heads.slice(0, -1)) {
        const proof = await storedProof(consistencyProofCoords(older.tree_size, size));
        expect(verifyConsistency(older.tree_size, size, proof, fromBase64(older.root_hash), last)).toBe(true);
      }
    });

    it('serialises appends from another process so the log still verifies', async () => {
      await store.initialiseLog(notary.seal);
      const dir = mkdtempSync(join(tmpdir(), 'tended-key-'));
      const writer = appendProcess({
        url: t.url,
        keyFile: notary.keyFile(dir),
        origin: notary.origin,
        prefix: 'other',
        count: 40,
        batch: 4,
      });
      for (let i = 0; i < 10; i++) {
        await store.appendObservations(
          [
            githubObservation(`acme/c${i}`, '2025-02-01', 'alive'),
            githubObservation(`acme/c${i}`, '2025-02-02', 'alive'),
          ],
          notary.seal,
        );
      }
      const { code, err } = await writer.exited;
      expect(err).toBe('');
      expect(code).toBe(0);
      rmSync(dir, { recursive: true, force: true });
      expect(await store.treeSize()).toBe(60);
      const head = (await store.latestHead())!;
      const report = await auditLog(storeLogSource(store, head), notary.verifier, notary.origin);
      expect(report).toMatchObject({ tree_size: 60, heads_checked: 21 });
    });

    it('leaves a log that verifies when a writer process is killed in the middle of an append', async () => {
      await store.initialiseLog(notary.seal);
      const dir = mkdtempSync(join(tmpdir(), 'tended-key-'));
      const writer = appendProcess({
        url: t.url,
        keyFile: notary.keyFile(dir),
        origin: notary.origin,
        prefix: 'killed',
        count: 40_000,
        batch: 4_000,
      });
      await writer.batches(2);
      writer.child.kill('SIGKILL');
      const { signal } = await writer.exited;
      rmSync(dir, { recursive: true, force: true });
      expect(signal).toBe('SIGKILL');
      const reopened = await t.reopen();
      const size = await reopened.treeSize();
      expect(size % 4_000).toBe(0);
      expect(size).toBeLessThan(40_000);
      const head = (await reopened.latestHead())!;
      expect(head.tree_size).toBe(size);
      const report = await auditLog(storeLogSource(reopened, head), notary.verifier, notary.origin);
      expect(report.tree_size).toBe(size);
      await reopened.appendObservations([githubObservation('acme/after', '2025-02-01', 'alive')], notary.seal);
      expect(await reopened.treeSize()).toBe(size + 1);
    });

    it('names a component’s version (its latest leaf), which moves with every append, from any connection', async () => {
      await store.initialiseLog(notary.seal);
      const widget = { kind: 'github' as const, id: 'acme/widget' };
      expect(await store.componentVersion(widget)).toBeNull();
      await store.appendObservations(
        [
          githubObservation('acme/widget', '2025-01-01', 'alive'),
          githubObservation('acme/other', '2025-01-01', 'alive'),
        ],
        notary.seal,
      );
      expect(await store.componentVersion(widget)).toBe(0);
      const other = await t.reopen();
      expect(await other.componentVersion(widget)).toBe(0);
      await other.appendObservations([githubObservation('acme/widget', '2025-01-02', 'dormant')], notary.seal);
      expect(await other.componentVersion(widget)).toBe(2);
      await sleep(OTHER_WRITER_LAG_MS + 5);
      expect(await store.componentVersion(widget)).toBe(2);
      await store.appendObservations(
        [{ ...githubObservation('acme/widget', '2025-01-02', 'alive'), corrects: 2 }],
        notary.seal,
      );
      expect(await store.componentVersion(widget)).toBe(3);
      await sleep(OTHER_WRITER_LAG_MS + 5);
      expect(await other.componentVersion(widget)).toBe(3);
      expect(await store.componentVersion({ kind: 'github', id: 'acme/other' })).toBe(1);
    });

    it('names the latest head, which moves at once with its own appends and soon with another connection’s', async () => {
      const first = await store.initialiseLog(notary.seal);
      expect((await store.latestHead())?.head_hash).toBe(first.head_hash);
      await store.appendObservations([githubObservation('acme/widget', '2025-01-01', 'alive')], notary.seal);
      expect((await store.latestHead())?.tree_size).toBe(1);
      const other = await t.reopen();
      expect((await other.latestHead())?.tree_size).toBe(1);
      await other.appendObservations([githubObservation('acme/widget', '2025-01-02', 'alive')], notary.seal);
      await sleep(OTHER_WRITER_LAG_MS + 5);
      expect((await store.latestHead())?.tree_size).toBe(2);
      await store.appendObservations([githubObservation('acme/widget', '2025-01-03', 'alive')], notary.seal);
      expect((await store.latestHead())?.tree_size).toBe(3);
    });

    it('keeps a watch list: added once, due at once, listed, removed without touching the record', async () => {
      const refs = ['acme/a', 'acme/b'].map((id) => ({ kind: 'github' as const, id }));
      expect(await store.watchAdd(refs, '2025-01-01T00:00:00.000Z')).toBe(2);
      expect(await store.watchAdd([refs[0]!, { kind: 'npm', id: '@scope/pkg' }], '2025-01-02T00:00:00.000Z')).toBe(1);
      const list = await store.watchList();
      expect(list.map((w) => `${w.component.kind}:${w.component.id}`)).toEqual([
        'github:acme/a',
        'github:acme/b',
        'npm:@scope/pkg',
      ]);
      expect(list[0]).toMatchObject({ due_at: '2025-01-01T00:00:00.000Z', claimed_until: null });
      expect(await store.watchRemove(refs[1]!)).toBe(true);
      expect(await store.watchRemove(refs[1]!)).toBe(false);
      expect((await store.watchList()).length).toBe(2);
      expect(await store.treeSize()).toBe(0);
    });

    it('gives each due component to exactly one of several racing claimer processes, until its lease ends', async () => {
      const refs = Array.from({ length: 60 }, (_, i) => ({
        kind: 'github' as const,
        id: `acme/r${String(i).padStart(2, '0')}`,
      }));
      await store.watchAdd(refs, '2025-01-01T00:00:00.000Z');
      const now = '2025-01-01T06:00:00.000Z';
      const lease = '2025-01-01T06:10:00.000Z';
      const [a, b, c] = await Promise.all([
        claimProcess(t.url, now, lease, 3, 10),
        claimProcess(t.url, now, lease, 3, 10),
        claimProcess(t.url, now, lease, 3, 10),
      ]);
      const claimed = [...a, ...b, ...c];
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBe(60);
      expect(await store.claimDue(now, 10, lease)).toEqual([]);
      // Instants in either RFC 3339 spelling compare as instants, not as text.
      expect(await store.claimDue('2025-01-01T06:10:00Z', 1, '2025-01-01T06:20:00Z')).toHaveLength(0);
      expect(await store.claimDue('2025-01-01T06:10:00.001Z', 1, '2025-01-01T06:20:00Z')).toHaveLength(1);
      await store.releaseWatch(refs.slice(1), '2025-01-03T00:00:00.000Z');
      await store.releaseWatch([refs[0]!], '2025-01-02T00:00:00.000Z');
      expect(await store.claimDue('2025-01-01T07:00:00.000Z', 100, '2025-01-01T07:10:00.000Z')).toEqual([]);
      expect(await store.claimDue('2025-01-02T00:00:00.000Z', 100, '2025-01-02T00:10:00.000Z')).toEqual([refs[0]]);
    });

    it('extends running claims, never one already released', async () => {
      const refs = [
        { kind: 'npm' as const, id: 'left-pad' },
        { kind: 'github' as const, id: 'acme/rocket' },
      ];
      await store.watchAdd(refs, '2025-01-01T00:00:00.000Z');
      expect(await store.claimDue('2025-01-01T06:00:00.000Z', 10, '2025-01-01T06:02:00.000Z')).toHaveLength(2);
      await store.releaseWatch([refs[0]!], '2025-01-02T00:00:00.000Z');
      await store.extendClaims(refs, '2025-01-01T06:04:00Z');
      const byId = Object.fromEntries((await store.watchList()).map((w) => [w.component.id, w]));
      expect(byId['acme/rocket']).toMatchObject({ claimed_until: '2025-01-01T06:04:00.000Z' });
      expect(byId['left-pad']).toMatchObject({ claimed_until: null, due_at: '2025-01-02T00:00:00.000Z' });
      // The extended lease holds: another claimer after the first lease's end gets nothing.
      expect(await store.claimDue('2025-01-01T06:03:00.000Z', 10, '2025-01-01T06:05:00.000Z')).toEqual([]);
      expect(await store.claimDue('2025-01-01T06:04:00.001Z', 10, '2025-01-01T06:06:00.000Z')).toEqual([refs[1]]);
    });

    it('remembers an upstream answer’s validators and facts, replacing them on the next full answer', async () => {
      expect(await store.cacheGet('https://registry.example/left-pad')).toBeNull();
      await store.cacheSet('https://registry.example/left-pad', {
        etag: 'W/"1"',
        last_modified: null,
        facts: { latest: '1.3.0' },
      });
      await store.cacheSet('https://registry.example/left-pad', {
        etag: 'W/"2"',
        last_modified: 'Tue, 01 Jan 2025 00:00:00 GMT',
        facts: { latest: '1.4.0' },
      });
      expect(await store.cacheGet('https://registry.example/left-pad')).toEqual({
        etag: 'W/"2"',
        last_modified: 'Tue, 01 Jan 2025 00:00:00 GMT',
        facts: { latest: '1.4.0' },
      });
    });
  });
}
