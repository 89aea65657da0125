import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filterTargets, parseSubscriptionFilter } from '../src/domain/subscription.js';
import type { Store } from '../src/storage/store.js';
import type { ClaimedDelivery, NewSubscription } from '../src/storage/subscription-records.js';
import { githubObservation, testNotary, type TestStore } from './support/record.js';

/** The webhook outbox's contract (DESIGN §8f), on every adapter. */
export function storeWebhooksContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store webhooks contract on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const notary = testNotary();
    beforeEach(async () => {
      t = await open();
      store = t.store;
      await store.initialiseLog(notary.seal);
    });
    afterEach(() => t.dispose());

    const subscription = (
      id: string,
      body: Parameters<typeof parseSubscriptionFilter>[0],
      key = 'k_1',
    ): NewSubscription => {
      const filter = parseSubscriptionFilter(body);
      return {
        id,
        key_id: key,
        endpoint: `https://hooks.example/${id}`,
        secret: 'whsec_c2VjcmV0',
        filter,
        targets: filterTargets(filter),
        created_at: '2025-03-01T00:00:00.000Z',
      };
    };
    const claimAll = (s: Store, now: string, until: string) => s.claimDeliveries(now, 100, until);

    it('stores a subscription, bounds them per key, and deletes it with its deliveries', async () => {
      expect(await store.subscriptionCreate(subscription('s1', { components: ['github/acme/a'] }), 2)).toBe(true);
      expect(await store.subscriptionCreate(subscription('s2', { states: ['archived'] }), 2)).toBe(true);
      expect(await store.subscriptionCreate(subscription('s3', { states: ['deleted'] }), 2)).toBe(false);
      expect(await store.subscriptionCreate(subscription('s3', { states: ['deleted'] }, 'k_2'), 2)).toBe(true);
      expect(await store.subscription('s1')).toMatchObject({
        key_id: 'k_1',
        filter: { components: [{ kind: 'github', id: 'acme/a' }], owners: [], states: [] },
        paused_until: null,
        pending: 0,
      });
      await store.appendObservations([githubObservation('acme/a', '2025-03-01', 'alive')], notary.seal);
      await store.appendObservations([githubObservation('acme/a', '2025-03-02', 'archived')], notary.seal);
      expect((await store.subscription('s1'))!.pending).toBe(1);
      expect(await store.subscriptionDelete('s1')).toBe(true);
      expect(await store.subscription('s1')).toBeNull();
      expect(await store.subscriptionDelete('s1')).toBe(false);
      // s2 (all changes into archived) still has its delivery; s1's went with it.
      const claimed = await claimAll(store, '2030-01-01T00:00:00.000Z', '2030-01-01T00:01:00.000Z');
      expect(claimed.map((d) => d.subscription_id)).toEqual(['s2']);
    });

    it('writes a delivery for each matching subscription in the append that changes a state, and none otherwise', async () => {
      await store.subscriptionCreate(subscription('comp', { components: ['pkg:github/acme/a'] }), 10);
      await store.subscriptionCreate(subscription('owner', { owners: ['github/ACME'] }), 10);
      await store.subscriptionCreate(subscription('state', { states: ['deleted'] }), 10);
      await store.subscriptionCreate(subscription('other', { components: ['npm/left-pad'] }), 10);
      await store.appendObservations(
        [githubObservation('acme/a', '2025-03-01', 'alive'), githubObservation('acme/b', '2025-03-01', 'alive')],
        notary.seal,
      );
      // First readings and a not_observed gap change nothing.
      await store.appendObservations([githubObservation('acme/a', '2025-03-02', 'not_observed')], notary.seal);
      expect(await claimAll(store, '2030-01-01T00:00:00.000Z', '2030-01-01T00:01:00.000Z')).toEqual([]);
      const { observations } = await store.appendObservations(
        [githubObservation('acme/a', '2025-03-03', 'archived'), githubObservation('acme/b', '2025-03-03', 'deleted')],
        notary.seal,
      );
      const claimed = await claimAll(store, '2030-01-01T00:00:00.000Z', '2030-01-01T00:01:00.000Z');
      const got = claimed.map((d) => `${d.subscription_id} ${d.change.component.id} ${d.change.from}→${d.change.to}`);
      expect(got.sort()).toEqual(
        [
          'comp acme/a alive→archived',
          'owner acme/a alive→archived',
          'owner acme/b alive→deleted',
          'state acme/b alive→deleted',
        ].sort(),
      );
      const a = claimed.find((d) => d.subscription_id === 'comp')!;
      expect(a.change).toMatchObject({
        leaf_index: observations[0]!.leaf_index,
        observation_date: '2025-03-03',
        previous_date: '2025-03-01',
        previous_leaf_index: 0,
        corrects: null,
      });
      expect(a.msg_id).toMatch(/^msg_/);
    });

    it('writes no delivery when the append fails halfway', async () => {
      await store.subscriptionCreate(subscription('state', { states: ['archived'] }), 10);
      await store.appendObservations([githubObservation('acme/a', '2025-03-01', 'alive')], notary.seal);
      // The second reading repeats a date: the whole batch is refused, the first one's change with it.
      await expect(
        store.appendObservations(
          [
            githubObservation('acme/a', '2025-03-02', 'archived'),
            githubObservation('acme/a', '2025-03-01', 'archived'),
          ],
          notary.seal,
        ),
      ).rejects.toThrow();
      expect(await claimAll(store, '2030-01-01T00:00:00.000Z', '2030-01-01T00:01:00.000Z')).toEqual([]);
      expect(await store.treeSize()).toBe(1);
    });

    it('leases a claim to one sender, gives it again once the lease lapses, and retires it on success', async () => {
      await store.subscriptionCreate(subscription('s', { states: ['archived'] }), 10);
      await store.appendObservations([githubObservation('acme/a', '2025-03-01', 'alive')], notary.seal);
      await store.appendObservations([githubObservation('acme/a', '2025-03-02', 'archived')], notary.seal);
      const other = await t.reopen();
      const now = '2030-01-01T00:00:00.000Z';
      // Another connection (another process, in effect) gets nothing while the lease runs. (Claims
      // racing from several processes are what the end-to-end webhook test runs.)
      const first = await claimAll(store, now, '2030-01-01T00:01:00.000Z');
      const second = await claimAll(other, now, '2030-01-01T00:01:00.000Z');
      expect([first.length, second.length]).toEqual([1, 0]);
      // The sender died: its lease lapses and another claims the same message.
      const again = await claimAll(other, '2030-01-01T00:01:00.001Z', '2030-01-01T00:02:00.000Z');
      expect(again.map((d) => d.msg_id)).toEqual([...first, ...second].map((d) => d.msg_id));
      // The dead sender's late outcome is not this claim's: it changes nothing.
      await store.deliveriesSucceeded([...first, ...second], '2030-01-01T00:01:30.000Z');
      expect((await store.subscription('s'))!.pending).toBe(1);
      await store.deliveriesSucceeded([again[0]!], '2030-01-01T00:01:30.000Z');
      expect(await store.subscription('s')).toMatchObject({ pending: 0, last_success_at: '2030-01-01T00:01:30.000Z' });
      expect(await claimAll(store, '2030-02-01T00:00:00.000Z', '2030-02-01T00:01:00.000Z')).toEqual([]);
      const feed = await store.subscriptionFeed('s', 0, 10);
      expect(feed).toHaveLength(1);
      expect(feed[0]).toMatchObject({ delivered_at: '2030-01-01T00:01:30.000Z', attempts: 1 });
      // Kept for the feed until pruned; pending rows never are.
      expect(await store.pruneDeliveries('2030-01-01T00:01:30.000Z', 10)).toBe(0);
      expect(await store.pruneDeliveries('2030-01-31T00:00:00.000Z', 10)).toBe(1);
      expect(await store.subscriptionFeed('s', 0, 10)).toEqual([]);
    });

    it('retries a failure when it falls due, and opens the circuit after K in a row for that subscription only', async () => {
      await store.subscriptionCreate(subscription('bad', { states: ['archived'] }), 10);
      await store.subscriptionCreate(subscription('good', { states: ['archived'] }), 10);
      await store.appendObservations([githubObservation('acme/a', '2025-03-01', 'alive')], notary.seal);
      await store.appendObservations([githubObservation('acme/a', '2025-03-02', 'archived')], notary.seal);
      const fail = (d: ClaimedDelivery, at: string, retry: string) =>
        store.deliveryFailed(d, {
          at,
          retry_at: retry,
          reason: 'HTTP 500',
          circuit_after: 2,
          paused_until: '2030-01-02T00:00:00.000Z',
        });
      // The good one's lease runs to 00:20: until then it is not given again.
      let claimed = await claimAll(store, '2030-01-01T00:00:00.000Z', '2030-01-01T00:20:00.000Z');
      const bad = () => claimed.find((d) => d.subscription_id === 'bad')!;
      await fail(bad(), '2030-01-01T00:00:01.000Z', '2030-01-01T00:10:00.000Z');
      // Not due before its retry.
      expect(await claimAll(store, '2030-01-01T00:05:00.000Z', '2030-01-01T00:06:00.000Z')).toEqual([]);
      claimed = await claimAll(store, '2030-01-01T00:10:00.000Z', '2030-01-01T00:11:00.000Z');
      expect(claimed.map((d) => d.subscription_id)).toEqual(['bad']);
      await fail(bad(), '2030-01-01T00:10:01.000Z', '2030-01-01T00:20:00.000Z');
      expect(await store.subscription('bad')).toMatchObject({
        consecutive_failures: 2,
        last_failure: 'HTTP 500',
        paused_until: '2030-01-02T00:00:00.000Z',
      });
      // Paused: its due row waits; the good subscription's row (its lease lapsed) is still given.
      const later = await claimAll(store, '2030-01-01T00:30:00.000Z', '2030-01-01T00:31:00.000Z');
      expect(later.map((d) => d.subscription_id)).toEqual(['good']);
      // Once the circuit's time is up, one more try; a success closes it.
      const retried = await claimAll(store, '2030-01-02T00:00:01.000Z', '2030-01-02T00:01:00.000Z');
      expect(retried.map((d) => d.subscription_id)).toContain('bad');
      await store.deliveriesSucceeded(
        retried.filter((d) => d.subscription_id === 'bad'),
        '2030-01-02T00:00:02.000Z',
      );
      expect(await store.subscription('bad')).toMatchObject({
        consecutive_failures: 0,
        paused_until: null,
        pending: 0,
      });
    });
  });
}
