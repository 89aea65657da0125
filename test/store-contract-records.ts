import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeLeaf, encodeLeaf } from '../src/notary/leaf.js';
import { observationLeafRecord } from '../src/domain/observation.js';
import { auditLog, storeLogSource } from '../src/operations/audit-log.js';
import type { Store } from '../src/storage/store.js';
import { KeySetConflictError, LogInvariantError } from '../src/storage/store-errors.js';
import { KEY_SET_LEAF_TYPE, keySetDigest, keySetLeafRecord, type KeySetDocument } from '../src/notary/key-set.js';
import { githubObservation, testNotary, type TestStore } from './support/record.js';

/**
 * The storage contract, continued: census reads, API keys, verdict key sets, the change feed and
 * imports. Like store-contract.ts, every adapter must pass it unchanged.
 */
export function storeRecordsContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (census, keys, key sets, changes) on ${backend}`, () => {
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

    it('reads a component’s series without evidence, and the one observation an answer rests on whole', async () => {
      await store.initialiseLog(notary.seal);
      const widget = { kind: 'github' as const, id: 'acme/widget' };
      const { observations } = await store.appendObservations(
        [
          githubObservation('acme/widget', '2025-01-01', 'alive'),
          githubObservation('acme/other', '2025-01-01', 'archived'),
          githubObservation('acme/widget', '2025-01-02', 'not_observed'),
        ],
        notary.seal,
      );
      const { observations: corrections } = await store.appendObservations(
        [githubObservation('acme/widget', '2025-01-03', 'dormant', { corrects: observations[2]!.leaf_index })],
        notary.seal,
      );
      const whole = await store.observationsOf(widget);
      expect(whole).toHaveLength(3);
      const series = whole.map((o) => ({
        leaf_index: o.leaf_index,
        observation_date: o.observation_date,
        state: o.state,
        corrects: o.corrects,
      }));
      // The reading sent with the series is the latest dated on or before the date, whole.
      expect(await store.seriesAt(widget, '2025-01-02')).toEqual({ series, reading: whole[1] });
      expect(await store.seriesAt(widget, '2025-01-01')).toEqual({ series, reading: whole[0] });
      expect(await store.seriesAt(widget, '2025-06-30')).toEqual({ series, reading: whole[2] });
      expect(await store.seriesAt(widget, '2024-12-31')).toEqual({ series, reading: null });
      expect(series.at(-1)).toEqual({
        leaf_index: corrections[0]!.leaf_index,
        observation_date: '2025-01-03',
        state: 'dormant',
        corrects: observations[2]!.leaf_index,
      });
      expect(await store.seriesAt({ kind: 'github', id: 'acme/unheld' }, '2025-01-02')).toEqual({
        series: [],
        reading: null,
      });
      expect(await store.observationAt(widget, observations[2]!.leaf_index)).toEqual(whole[1]);
      expect(await store.observationAt(widget, corrections[0]!.leaf_index)).toEqual(whole[2]);
      // Another component's leaf, or no leaf at all, is not this component's observation.
      expect(await store.observationAt(widget, observations[1]!.leaf_index)).toBeNull();
      expect(await store.observationAt(widget, 999)).toBeNull();
    });

    it('gives back leaves’ exact bytes alone, in index order, for an audit', async () => {
      await store.initialiseLog(notary.seal);
      await store.appendObservations(
        ['2025-01-01', '2025-01-02', '2025-01-03'].map((d) => githubObservation('acme/widget', d, 'alive')),
        notary.seal,
      );
      const whole = await store.leaves(0, 10);
      const bytes = await store.leafBytes(0, 10);
      expect(bytes.map((b) => Buffer.from(b).toString('base64'))).toEqual(
        whole.map((l) => Buffer.from(l.bytes).toString('base64')),
      );
      expect((await store.leafBytes(1, 1)).map((b) => Buffer.from(b).toString('base64'))).toEqual([
        Buffer.from(whole[1]!.bytes).toString('base64'),
      ]);
      expect(await store.leafBytes(whole.length, 5)).toEqual([]);
    });

    it('chains census reads beside observations and gives back the latest', async () => {
      await store.initialiseLog(notary.seal);
      const pkg = { kind: 'npm' as const, id: '@acme/widget' };
      expect(await store.latestCensus(pkg)).toBeNull();
      const read = (date: string, dependents: number | null) => ({
        component: pkg,
        read_at: `${date}T03:00:00Z`,
        read_date: date,
        dependents,
        source: 'https://packages.ecosyste.ms/api/v1/registries/npmjs.org/packages/@acme%2Fwidget',
        evidence: { http_status: dependents === null ? 503 : 200 },
        method: 'ecosyste.ms dependent_packages_count',
      });
      await store.appendObservations([githubObservation('acme/widget', '2025-01-01', 'alive')], notary.seal);
      const { census } = await store.appendCensus([read('2025-01-01', 12), read('2025-01-02', null)], notary.seal);
      expect(census.map((c) => c.leaf_index)).toEqual([1, 2]);
      expect(await store.latestCensus(pkg)).toMatchObject({ read_date: '2025-01-02', dependents: null, leaf_index: 2 });
      const leaf = decodeLeaf((await store.leaf(1))!.bytes) as Record<string, unknown>;
      expect(leaf).toMatchObject({ _type: 'tended/census/v1', component: 'pkg:npm/%40acme/widget', dependents: 12 });
      const report = await auditLog(storeLogSource(store, (await store.latestHead())!), notary.verifier, notary.origin);
      expect(report.tree_size).toBe(3);
      await expect(store.appendCensus([{ ...read('2025-01-03', 1), dependents: -1 }], notary.seal)).rejects.toThrow(
        /dependents/,
      );
      expect(await store.treeSize()).toBe(3);
    });

    it('lists the packages whose latest census qualifies them for a page, by id', async () => {
      await store.initialiseLog(notary.seal);
      const read = (id: string, date: string, dependents: number | null) => ({
        component: { kind: 'npm' as const, id },
        read_at: `${date}T03:00:00Z`,
        read_date: date,
        dependents,
        source: `https://packages.ecosyste.ms/api/v1/registries/npmjs.org/packages/${encodeURIComponent(id)}`,
        evidence: { http_status: dependents === null ? 503 : 200 },
        method: 'ecosyste.ms dependent_packages_count',
      });
      await store.appendCensus(
        [
          read('zeta', '2025-01-01', 5),
          read('alpha', '2025-01-01', 0),
          read('@s/mid', '2025-01-01', 3),
          read('gone', '2025-01-01', 9),
          read('alpha', '2025-01-02', 2),
        ],
        notary.seal,
      );
      // A later failed read (null) is the latest census: it qualifies nothing, and is not zero either.
      await store.appendCensus([read('gone', '2025-01-02', null)], notary.seal);
      expect(await store.adoptedComponents('npm', 1)).toEqual([
        { component: { kind: 'npm', id: '@s/mid' }, dependents: 3, read_date: '2025-01-01', leaf_index: 2 },
        { component: { kind: 'npm', id: 'alpha' }, dependents: 2, read_date: '2025-01-02', leaf_index: 4 },
        { component: { kind: 'npm', id: 'zeta' }, dependents: 5, read_date: '2025-01-01', leaf_index: 0 },
      ]);
      expect((await store.adoptedComponents('npm', 4)).map((a) => a.component.id)).toEqual(['zeta']);
      expect(await store.adoptedComponents('pypi', 0)).toEqual([]);
      // The census version moves with this store's own appends at once.
      expect(await store.censusVersion({ kind: 'npm', id: 'alpha' })).toBe(4);
      expect(await store.censusVersion({ kind: 'npm', id: 'nobody' })).toBeNull();
      await store.appendCensus([read('alpha', '2025-01-03', 7)], notary.seal);
      expect(await store.censusVersion({ kind: 'npm', id: 'alpha' })).toBe(6);
    });

    it('reads the observations of many components at once, leaving out what it does not hold', async () => {
      await store.initialiseLog(notary.seal);
      const obs = Array.from({ length: 450 }, (_, i) => githubObservation(`acme/m${i}`, '2025-01-01', 'alive'));
      await store.appendObservations(obs, notary.seal);
      await store.appendObservations([githubObservation('acme/m7', '2025-01-02', 'dormant')], notary.seal);
      const refs = [...obs.map((o) => o.component), { kind: 'npm' as const, id: 'acme-m7' }];
      const held = await store.observationsOfMany(refs);
      expect(held.size).toBe(450);
      expect(held.get('github:acme/m7')!.map((o) => o.state)).toEqual(['alive', 'dormant']);
      expect(held.has('npm:acme-m7')).toBe(false);
    });

    it('groups the components under an owner namespace, and only those', async () => {
      await store.initialiseLog(notary.seal);
      await store.appendObservations(
        [
          githubObservation('acme/b', '2025-01-01', 'alive'),
          githubObservation('acme/a', '2025-01-01', 'dormant'),
          githubObservation('acme/a', '2025-01-02', 'alive'),
          githubObservation('acmecorp/x', '2025-01-01', 'alive'),
        ],
        notary.seal,
      );
      const held = await store.seriesUnderOwner('github', 'acme', '2025-01-01');
      expect(held.map((h) => [h.component.id, h.series.length])).toEqual([
        ['acme/a', 2],
        ['acme/b', 1],
      ]);
      // Each with the reading the date's answer rests on, whole: the latest on or before the date.
      const a = (await store.observationsOf({ kind: 'github', id: 'acme/a' }))[0]!;
      expect(held[0]!.reading).toEqual(a);
      expect(held[0]!.series.map((e) => e.state)).toEqual(['dormant', 'alive']);
      expect((await store.seriesUnderOwner('github', 'acme', '2025-01-02'))[0]!.reading?.state).toBe('alive');
      expect((await store.seriesUnderOwner('github', 'acme', '2024-12-31'))[0]!.reading).toBeNull();
      expect(await store.seriesUnderOwner('github', 'nobody', '2025-01-01')).toEqual([]);
    });

    it('imports exact leaf bytes and refuses logged_at going backwards', async () => {
      await store.initialiseLog(notary.seal);
      const o = githubObservation('acme/widget', '2025-01-01', 'alive');
      const bytes = encodeLeaf(observationLeafRecord(o, '2025-01-01T07:00:00.000Z'));
      await store.importLeaves([{ bytes, observation: o, logged_at: '2025-01-01T07:00:00.000Z' }], notary.seal);
      expect(Buffer.from((await store.leaf(0))!.bytes).equals(Buffer.from(bytes))).toBe(true);
      const o2 = githubObservation('acme/widget', '2025-01-02', 'alive');
      await expect(
        store.importLeaves(
          [
            {
              bytes: encodeLeaf(observationLeafRecord(o2, '2024-12-31T00:00:00.000Z')),
              observation: o2,
              logged_at: '2024-12-31T00:00:00.000Z',
            },
          ],
          notary.seal,
        ),
      ).rejects.toBeInstanceOf(LogInvariantError);
      expect(await store.treeSize()).toBe(1);
    });

    it('keeps API keys as hashes: create, look up by hash, revoke once, list', async () => {
      const hash = (c: string) => c.repeat(64);
      await store.apiKeyCreate({
        id: 'k_one',
        key_hash: hash('a'),
        label: 'ci bot',
        created_at: '2026-11-01T10:00:00.000Z',
      });
      await store.apiKeyCreate({
        id: 'k_two',
        key_hash: hash('b'),
        label: null,
        created_at: '2026-11-02T10:00:00.000Z',
      });
      await expect(
        store.apiKeyCreate({ id: 'k_three', key_hash: hash('a'), label: null, created_at: '2026-11-03T10:00:00.000Z' }),
      ).rejects.toThrow();
      expect(await store.apiKeyByHash(hash('a'))).toEqual({
        id: 'k_one',
        label: 'ci bot',
        created_at: '2026-11-01T10:00:00.000Z',
        revoked_at: null,
      });
      expect(await store.apiKeyByHash(hash('c'))).toBeNull();
      expect(await store.apiKeyRevoke('k_one', '2026-11-05T00:00:00.000Z')).toBe(true);
      expect(await store.apiKeyRevoke('k_one', '2026-11-06T00:00:00.000Z')).toBe(false);
      expect(await store.apiKeyRevoke('k_nobody', '2026-11-06T00:00:00.000Z')).toBe(false);
      expect((await store.apiKeyByHash(hash('a')))?.revoked_at).toBe('2026-11-05T00:00:00.000Z');
      expect(await store.apiKeys()).toEqual([
        {
          id: 'k_one',
          label: 'ci bot',
          created_at: '2026-11-01T10:00:00.000Z',
          revoked_at: '2026-11-05T00:00:00.000Z',
        },
        { id: 'k_two', label: null, created_at: '2026-11-02T10:00:00.000Z', revoked_at: null },
      ]);
    });

    it('keeps each verdict key-set version with its digest logged as a leaf; only the next version is accepted; survives reopening', async () => {
      await store.initialiseLog(notary.seal);
      await store.appendObservations([githubObservation('acme/widget', '2025-01-01', 'alive')], notary.seal);
      const doc = (version: number, kids: string[]): KeySetDocument => ({
        version,
        issued_at: '2026-01-01T00:00:00Z',
        keys: kids.map((kid) => ({
          kty: 'OKP',
          crv: 'Ed25519',
          x: `x-${kid}`,
          kid,
          alg: 'Ed25519',
          use: 'sig',
          status: 'active',
          valid_from: '2026-01-01T00:00:00Z',
          valid_until: null,
        })),
        log: {
          origin: notary.origin,
          vkeys: [{ vkey: notary.vkey, status: 'active', valid_from: '2026-01-01T00:00:00Z', valid_until: null }],
        },
      });
      const envelope = {
        payloadType: 'application/vnd.tended.keyset+json',
        payload: 'e30=',
        signatures: [{ keyid: 'a', sig: 'AA==' }],
      };
      const first = await store.appendKeySet({ document: doc(1, ['a']), envelope }, notary.seal);
      expect(first.key_sets).toEqual([
        { document: doc(1, ['a']), envelope, digest: keySetDigest(doc(1, ['a'])), leaf_index: 1 },
      ]);
      expect(first.head.tree_size).toBe(2);
      const leaf = decodeLeaf((await store.leaf(1))!.bytes) as Record<string, unknown>;
      expect(leaf).toMatchObject({ _type: KEY_SET_LEAF_TYPE, version: 1, sha256: keySetDigest(doc(1, ['a'])) });

      await expect(store.appendKeySet({ document: doc(1, ['b']), envelope }, notary.seal)).rejects.toBeInstanceOf(
        KeySetConflictError,
      );
      await expect(store.appendKeySet({ document: doc(3, ['a', 'b']), envelope }, notary.seal)).rejects.toBeInstanceOf(
        KeySetConflictError,
      );
      expect(await store.treeSize()).toBe(2);
      await store.appendKeySet({ document: doc(2, ['a', 'b']), envelope }, notary.seal);

      const again = await t.reopen();
      expect(
        (await again.keySets()).map((k) => [k.document.version, k.document.keys.map((x) => x.kid), k.leaf_index]),
      ).toEqual([
        [1, ['a'], 1],
        [2, ['a', 'b'], 2],
      ]);
      // The audit reads key-set leaves like any other.
      const head = (await again.latestHead())!;
      expect((await auditLog(storeLogSource(again, head), notary.verifier, notary.origin)).tree_size).toBe(3);
    });

    it('a second writer publishing the same key-set version loses, and writes nothing', async () => {
      await store.initialiseLog(notary.seal);
      // Two connections of one process cannot hold SQLite transactions at once (the busy wait
      // blocks the event loop), so the race is played in turn: the sequencer lock makes it so anyway.
      const other = await t.reopen();
      const doc = (kid: string): KeySetDocument => ({
        version: 1,
        issued_at: '2026-01-01T00:00:00Z',
        keys: [],
        log: { origin: kid, vkeys: [] },
      });
      const envelope = { payloadType: 'application/vnd.tended.keyset+json', payload: 'e30=', signatures: [] };
      await store.appendKeySet({ document: doc('a'), envelope }, notary.seal);
      await expect(other.appendKeySet({ document: doc('b'), envelope }, notary.seal)).rejects.toBeInstanceOf(
        KeySetConflictError,
      );
      expect((await other.keySets()).map((k) => k.document.log.origin)).toEqual(['a']);
      expect(await other.treeSize()).toBe(1);
    });

    it('refuses a batch with an observation no leaf can hold by rejecting, and writes none of it', async () => {
      await store.initialiseLog(notary.seal);
      const bad = githubObservation('acme/bad', '2025-01-01', 'alive', {
        evidence: { http_status: 200, ratio: 0.5 },
      });
      // Leaves are made before the sequencer's lock: a refusal must still come as a rejection.
      const appending = store.appendObservations(
        [githubObservation('acme/good', '2025-01-01', 'alive'), bad],
        notary.seal,
      );
      await expect(appending).rejects.toThrow(/whole number/);
      expect(await store.treeSize()).toBe(0);
      expect((await store.seriesAt({ kind: 'github', id: 'acme/good' }, '2025-01-02')).series).toEqual([]);
    });

    it('lists state changes in log order within a window: not_observed is a gap, a first reading no change', async () => {
      await store.initialiseLog(notary.seal);
      const a = 'acme/widget';
      const b = 'acme/gadget';
      await store.appendObservations(
        [
          githubObservation(a, '2025-01-01', 'alive'), // 0: first reading, no change
          githubObservation(b, '2025-01-01', 'dormant'), // 1
          githubObservation(a, '2025-01-02', 'not_observed'), // 2: a gap, never a change
          githubObservation(a, '2025-01-03', 'alive'), // 3: same state across the gap
          githubObservation(b, '2025-01-03', 'abandoned'), // 4: dormant → abandoned
          githubObservation(a, '2025-01-04', 'not_observed'), // 5
          githubObservation(a, '2025-01-05', 'archived'), // 6: alive → archived, across the gap
        ],
        notary.seal,
      );
      // 7: a correction of leaf 6 that reads alive again: the reading the feed last gave is withdrawn.
      await store.appendObservations([{ ...githubObservation(a, '2025-01-05', 'alive'), corrects: 6 }], notary.seal);
      const all = await store.stateChanges({ fromLeaf: 0, untilLeaf: 8, since: null, limit: 100 });
      expect(
        all.map((c) => [c.leaf_index, c.component.id, c.from, c.to, c.previous_date, c.observation_date, c.corrects]),
      ).toEqual([
        [4, b, 'dormant', 'abandoned', '2025-01-01', '2025-01-03', null],
        [6, a, 'alive', 'archived', '2025-01-03', '2025-01-05', null],
        [7, a, 'archived', 'alive', '2025-01-05', '2025-01-05', 6],
      ]);
      // The window and the limit cut the same list; since filters on the reading's date.
      expect(
        (await store.stateChanges({ fromLeaf: 5, untilLeaf: 7, since: null, limit: 100 })).map((c) => c.leaf_index),
      ).toEqual([6]);
      expect(
        (await store.stateChanges({ fromLeaf: 0, untilLeaf: 8, since: null, limit: 1 })).map((c) => c.leaf_index),
      ).toEqual([4]);
      expect(
        (await store.stateChanges({ fromLeaf: 0, untilLeaf: 8, since: '2025-01-04', limit: 100 })).map(
          (c) => c.leaf_index,
        ),
      ).toEqual([6, 7]);
      expect(await store.stateChanges({ fromLeaf: 8, untilLeaf: 100, since: null, limit: 100 })).toEqual([]);
    });

    it('finds the first leaf logged at or after an instant or a date', async () => {
      await store.initialiseLog(notary.seal);
      expect(await store.firstLeafLoggedFrom('2000-01-01')).toBeNull();
      await store.appendObservations(
        [
          githubObservation('acme/widget', '2025-01-01', 'alive'),
          githubObservation('acme/gadget', '2025-01-01', 'alive'),
        ],
        notary.seal,
      );
      const first = (await store.leaf(0))!.logged_at;
      expect(await store.firstLeafLoggedFrom('2000-01-01')).toBe(0);
      expect(await store.firstLeafLoggedFrom(first.slice(0, 10))).toBe(0);
      expect(await store.firstLeafLoggedFrom((await store.leaf(1))!.logged_at)).toBe(
        (await store.leaf(1))!.logged_at === first ? 0 : 1,
      );
      expect(await store.firstLeafLoggedFrom('9999-01-01')).toBeNull();
    });

    it('imports a key-set leaf as a leaf only (an export carries no key-set document)', async () => {
      await store.initialiseLog(notary.seal);
      const bytes = encodeLeaf(
        keySetLeafRecord(
          { version: 1, issued_at: '2026-01-01T00:00:00Z', digest: 'ab'.repeat(32) },
          '2026-01-01T00:00:01.000Z',
        ),
      );
      await store.importLeaves(
        [{ bytes, logged_at: '2026-01-01T00:00:01.000Z', keyset: { version: 1, digest: 'ab'.repeat(32) } }],
        notary.seal,
      );
      expect(Buffer.from((await store.leaf(0))!.bytes).equals(Buffer.from(bytes))).toBe(true);
      expect(await store.keySets()).toEqual([]);
    });
  });
}
