import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ComponentRef } from '../src/domain/component.js';
import type { Store } from '../src/storage/store.js';
import { githubObservation, testNotary, type TestStore } from './support/record.js';

/**
 * The storage contract, continued: discovery's bookkeeping (DESIGN §3 "Discovery"). Like
 * store-contract.ts, every adapter must pass it unchanged.
 */
export function storeDiscoveryContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (discovery) on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const notary = testNotary();
    const gh = (id: string): ComponentRef => ({ kind: 'github', id });
    const npm = (id: string): ComponentRef => ({ kind: 'npm', id });
    const DAY = '2026-03-15T12:00:00.000Z';
    const add = { add: true, dailyCap: 100 };

    beforeEach(async () => {
      t = await open();
      store = t.store;
      await store.initialiseLog(notary.seal);
    });
    afterEach(async () => {
      await t.dispose();
    });

    it('counts the watch list for the metrics: watched, due, claimed, unconfirmed, and the day’s discoveries', async () => {
      const none = { watched: 0, due: 0, claimed: 0, unconfirmed: 0, discoveredToday: 0 };
      expect(await store.queueFigures(DAY)).toEqual(none);
      await store.watchAdd([gh('acme/a'), gh('acme/b'), gh('acme/c')], DAY);
      await store.queueDiscovered([npm('found-one'), npm('found-two')], DAY, { ...add, countAsked: true });
      // One discovered name shown public by a read; one watched component claimed by a worker.
      await store.appendObservations(
        [{ ...githubObservation('acme/x', '2026-03-15', 'alive'), component: npm('found-one') }],
        notary.seal,
      );
      const claimed = await store.claimDue(DAY, 1, '2026-03-15T12:02:00.000Z');
      expect(claimed).toHaveLength(1);
      expect(await store.queueFigures(DAY)).toEqual({
        watched: 5,
        due: 4,
        claimed: 1,
        unconfirmed: 1,
        discoveredToday: 2,
      });
      // The next day: the lease has run out, so everything is due again, and nothing was discovered yet.
      expect(await store.queueFigures('2026-03-16T00:00:00.000Z')).toEqual({
        watched: 5,
        due: 5,
        claimed: 0,
        unconfirmed: 1,
        discoveredToday: 0,
      });
    });

    it('finds held components by a prefix of their name or id, bounded, and never a name only queued', async () => {
      const held = (component: ComponentRef) => ({
        ...githubObservation('acme/x', '2026-03-15', 'alive'),
        component,
        source: `https://upstream.test/${component.kind}/${component.id}`,
      });
      const rocket: ComponentRef[] = [
        gh('acme/rocket'),
        { kind: 'maven', id: 'org.acme:rocket-core' },
        { kind: 'cargo', id: 'rocket-rs' },
        { kind: 'golang', id: 'github.com/acme/rocket' },
        { kind: 'docker', id: 'docker.io/library/rocket:1-alpine' },
        npm('Rocketeer'),
        npm('@acme/rocket-ui'),
      ];
      const others: ComponentRef[] = [npm('pocket'), { kind: 'distro', id: 'debian/12' }];
      await store.appendObservations([...rocket, ...others].map(held), notary.seal);
      // Queued by a read, never shown public: not listed, though its name matches.
      await store.queueDiscovered([npm('rocket-private')], DAY, add);
      const ids = async (prefix: string, limit = 20) =>
        (await store.heldByPrefix(prefix, limit)).map((r) => `${r.kind}:${r.id}`);
      // Byte order of the names: "rocket" < "rocket-…" < "rocket:…" < "rocketeer".
      expect(await ids('rocket')).toEqual([
        'github:acme/rocket',
        'golang:github.com/acme/rocket',
        'maven:org.acme:rocket-core',
        'cargo:rocket-rs',
        'npm:@acme/rocket-ui',
        'docker:docker.io/library/rocket:1-alpine',
        'npm:Rocketeer',
      ]);
      // By name or whole id, case aside; a component matched both ways is listed once.
      expect(await ids('ROCKET-R')).toEqual(['cargo:rocket-rs']);
      expect(await ids('acme/rock')).toEqual(['github:acme/rocket']);
      expect(await ids('org.acme:')).toEqual(['maven:org.acme:rocket-core']);
      expect(await ids('debian')).toEqual(['distro:debian/12']);
      expect(await ids('rocket', 3)).toHaveLength(3);
      expect(await ids('zzz')).toEqual([]);
    });

    it('queues unheld names once, marked discovered and due at once; without add it only says which are listed', async () => {
      await store.watchAdd([gh('acme/operator')], DAY);
      const looked = await store.queueDiscovered([gh('acme/operator'), npm('left-pad')], DAY, {
        add: false,
        dailyCap: 100,
      });
      expect([...looked.listed]).toEqual(['github:acme/operator']);
      expect(looked.added).toBe(0);
      expect((await store.watchList()).length, 'looking adds nothing').toBe(1);

      const first = await store.queueDiscovered([npm('left-pad'), gh('acme/operator'), npm('left-pad')], DAY, add);
      expect(first.added).toBe(1);
      expect([...first.listed].sort()).toEqual(['github:acme/operator', 'npm:left-pad']);
      const again = await store.queueDiscovered([npm('left-pad')], DAY, add);
      expect(again).toMatchObject({ added: 0, over_cap: 0 });

      const list = await store.watchList();
      expect(list.map((w) => [w.component.id, w.discovered, w.unconfirmed, w.due_at])).toEqual([
        ['acme/operator', false, false, DAY],
        ['left-pad', true, true, DAY],
      ]);
      expect(await store.claimDue(DAY, 10, '2026-03-15T12:02:00.000Z')).toHaveLength(2);
      expect(await store.treeSize(), 'the watch list is not the record').toBe(0);
    });

    it('is confirmed by its first observation, and only discovered names without one are unconfirmed, each with when it was queued', async () => {
      await store.watchAdd([gh('acme/operator')], DAY);
      await store.queueDiscovered([gh('acme/public')], DAY, add);
      const later = '2026-03-16T08:00:00.000Z';
      await store.queueDiscovered([gh('acme/private')], later, add);
      // Asked again: it stays queued since it was first queued, so an expiry cannot be put off by asking.
      await store.queueDiscovered([gh('acme/public')], later, { ...add, countAsked: true });
      const all = [gh('acme/operator'), gh('acme/public'), gh('acme/private')];
      expect([...(await store.unconfirmedDiscoveries(all))].sort()).toEqual([
        ['github:acme/private', later],
        ['github:acme/public', DAY],
      ]);
      await store.appendObservations([githubObservation('acme/public', '2026-03-15', 'alive')], notary.seal);
      expect([...(await store.unconfirmedDiscoveries(all))]).toEqual([['github:acme/private', later]]);
      const listed = await store.watchList();
      expect(listed.find((w) => w.component.id === 'acme/public')).toMatchObject({
        discovered: true,
        unconfirmed: false,
      });
    });

    it('drops an unconfirmed name with its conditional-request cache, and never a name the record holds', async () => {
      await store.watchAdd([gh('acme/operator')], DAY);
      await store.queueDiscovered([gh('acme/public'), gh('secretco/internal')], DAY, add);
      await store.appendObservations([githubObservation('acme/public', '2026-03-15', 'alive')], notary.seal);
      const url = 'https://api.github.com/repos/secretco/internal';
      await store.cacheSet(url, { etag: '"x"', last_modified: null, facts: { format: 'v1', facts: {} } });
      const kept = 'https://api.github.com/repos/acme/public';
      await store.cacheSet(kept, { etag: '"y"', last_modified: null, facts: { format: 'v1', facts: {} } });

      const dropped = await store.dropDiscovered(
        [gh('secretco/internal'), gh('acme/public'), gh('acme/operator')],
        [url],
      );
      expect(dropped).toBe(1);
      expect((await store.watchList()).map((w) => w.component.id)).toEqual(['acme/operator', 'acme/public']);
      expect(await store.cacheGet(url)).toBeNull();
      expect(await store.cacheGet(kept)).not.toBeNull();
      // Gone from the component table too: queued again, it is a new name (counted again).
      const again = await store.queueDiscovered([gh('secretco/internal')], DAY, add);
      expect(again.added).toBe(1);
    });

    it('queues an owner once, each ask counted against the daily bound, lists it when due, and forgets it or retries it later', async () => {
      expect(await store.queueOwner('orgco', DAY, 3)).toBe('queued');
      expect(await store.queueOwner('orgco', DAY, 3), 'the same owner again, counted again').toBe('listed');
      expect(await store.queueDiscovered([npm('one-more')], DAY, { add: true, dailyCap: 3 })).toMatchObject({
        added: 1,
      });
      expect(await store.queueOwner('otherco', DAY, 3), 'two asks and one name used the day').toBe('over_cap');
      // Past the bound an owner queued before is answered as one never asked about: nothing tells them apart.
      expect(await store.queueOwner('orgco', DAY, 3)).toBe('over_cap');
      expect(await store.dueOwners(DAY, 10)).toEqual(['orgco']);
      expect(await store.dueOwners('2026-03-15T11:00:00.000Z', 10), 'not due before it was queued').toEqual([]);
      await store.finishOwner('orgco', '2026-03-15T13:00:00.000Z');
      expect(await store.dueOwners(DAY, 10), 'a failed listing waits').toEqual([]);
      expect(await store.dueOwners('2026-03-15T13:00:00.000Z', 10)).toEqual(['orgco']);
      await store.finishOwner('orgco', null);
      expect(await store.dueOwners('2026-03-16T00:00:00.000Z', 10), 'forgotten').toEqual([]);
    });

    it('counts every name a client asks against the day, queued before or not, and lists the first the day has room for', async () => {
      const asked = { add: true, dailyCap: 3, countAsked: true };
      await store.watchAdd([gh('acme/operator')], DAY);
      const first = await store.queueDiscovered([npm('a'), npm('b')], DAY, asked);
      expect(first).toMatchObject({ added: 2, over_cap: 0 });
      expect([...first.listed].sort()).toEqual(['npm:a', 'npm:b']);
      // `a` was queued before: it takes the day's last room all the same, and `c` none.
      const second = await store.queueDiscovered([npm('a'), npm('c')], DAY, asked);
      expect(second).toMatchObject({ added: 0, over_cap: 1 });
      expect([...second.listed]).toEqual(['npm:a']);
      // Past the bound, names queued before (by a read, by an operator) and a name never asked about are answered alike.
      const third = await store.queueDiscovered([npm('c'), npm('b'), gh('acme/operator')], DAY, asked);
      expect(third).toMatchObject({ added: 0, over_cap: 3 });
      expect([...third.listed]).toEqual([]);
      expect((await store.watchList()).map((w) => `${w.component.kind}:${w.component.id}`).sort()).toEqual([
        'github:acme/operator',
        'npm:a',
        'npm:b',
      ]);
      const tomorrow = await store.queueDiscovered([npm('c'), npm('a')], '2026-03-16T00:00:00.000Z', asked);
      expect(tomorrow).toMatchObject({ added: 1, over_cap: 0 });
      expect([...tomorrow.listed].sort()).toEqual(['npm:a', 'npm:c']);
      expect(await store.treeSize(), 'the watch list is not the record').toBe(0);
    });

    it.each([false, true])(
      'holds the daily bound across connections racing, and starts afresh the next UTC day (counting asks: %s)',
      async (countAsked) => {
        const other = await t.reopen();
        const cap = { add: true, dailyCap: 5, countAsked };
        const names = (prefix: string) => Array.from({ length: 4 }, (_, i) => npm(`${prefix}-${i}`));
        // PostgreSQL: two connections at once (the counter row's lock orders them). SQLite: one after
        // the other, since two connections in one thread cannot wait on each other's write lock; the
        // transaction holds that lock from its first statement, which orders processes the same way.
        const a = store.queueDiscovered(names('a'), DAY, cap);
        if (backend === 'sqlite') await a;
        const b = await other.queueDiscovered(names('b'), DAY, cap);
        const [first] = await Promise.all([a]);
        expect(first.added + b.added).toBe(5);
        expect(first.over_cap + b.over_cap).toBe(3);
        expect((await store.watchList()).length).toBe(5);
        expect((await store.queueDiscovered([npm('c-0')], '2026-03-15T23:59:59.000Z', cap)).over_cap).toBe(1);
        expect((await store.queueDiscovered([npm('c-0')], '2026-03-16T00:00:00.000Z', cap)).added).toBe(1);
      },
    );
  });
}
