import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ComponentKind, ComponentRef } from '../src/domain/component.js';
import type { NewCensus } from '../src/domain/census.js';
import type { NewObservation } from '../src/domain/observation.js';
import type { Store } from '../src/storage/store.js';
import { testNotary, type TestStore } from './support/record.js';

/**
 * The storage contract for adoption read in pages: the packages with a page walked by key (the
 * sitemap's and the census's reads), their count, and which names the census counts. Every adapter
 * must pass it unchanged.
 */
export function storeAdoptionContract(backend: 'sqlite' | 'postgres', open: () => Promise<TestStore>): void {
  describe(`store contract (adoption in pages) on ${backend}`, () => {
    let t: TestStore;
    let store: Store;
    const notary = testNotary();
    const DAY = '2025-03-01T00:00:00.000Z';

    beforeEach(async () => {
      t = await open();
      store = t.store;
      await store.initialiseLog(notary.seal);
    });
    afterEach(async () => {
      await t.dispose();
    });

    const read = (kind: ComponentKind, id: string, date: string, dependents: number | null): NewCensus => ({
      component: { kind, id },
      read_at: `${date}T03:00:00Z`,
      read_date: date,
      dependents,
      source: `https://packages.ecosyste.ms/api/v1/registries/x/packages/${encodeURIComponent(id)}`,
      evidence: { http_status: dependents === null ? 503 : 200 },
      method: 'ecosyste.ms dependent_packages_count',
    });
    const observed = (kind: ComponentKind, id: string, date: string): NewObservation => ({
      component: { kind, id },
      observed_at: `${date}T06:00:00Z`,
      observation_date: date,
      state: 'alive',
      source: `https://registry.example/${id}`,
      evidence: { http_status: 200 },
      method: 'registry read',
      corrects: null,
    });
    const walk = async (min: number, limit: number) => {
      const seen: string[] = [];
      let after: ComponentRef | null = null;
      for (;;) {
        const page = await store.adoptedPage(after, min, limit);
        expect(page.length).toBeLessThanOrEqual(limit);
        seen.push(...page.map((p) => `${p.component.kind}:${p.component.id}`));
        if (page.length < limit) return seen;
        after = page.at(-1)!.component;
      }
    };

    it('walks the packages with a page by key, in (kind, id) byte order, each once, by its latest census', async () => {
      await store.appendCensus(
        [
          read('npm', 'zeta', '2025-01-01', 5),
          read('npm', 'Alpha', '2025-01-01', 1),
          read('npm', 'alpha', '2025-01-01', 0),
          read('npm', '@s/mid', '2025-01-01', 3),
          read('pypi', 'requests', '2025-01-01', 70),
          read('cargo', 'serde', '2025-01-01', 40),
          read('npm', 'gone', '2025-01-01', 9),
          read('npm', 'alpha', '2025-01-02', 2),
        ],
        notary.seal,
      );
      // A later failed read (null) is the latest: it qualifies nothing.
      await store.appendCensus([read('npm', 'gone', '2025-01-02', null)], notary.seal);
      const all = ['cargo:serde', 'npm:@s/mid', 'npm:Alpha', 'npm:alpha', 'npm:zeta', 'pypi:requests'];
      for (const limit of [1, 2, 4, 100]) expect(await walk(1, limit)).toEqual(all);
      expect(await walk(3, 2)).toEqual(['cargo:serde', 'npm:@s/mid', 'npm:zeta', 'pypi:requests']);
      expect(await store.adoptedCount(1)).toBe(6);
      expect(await store.adoptedCount(3)).toBe(4);
      expect(await store.adoptedCount(1000)).toBe(0);
      // A page after a key picks up strictly after it, whether or not the key itself qualifies.
      expect((await store.adoptedPage({ kind: 'npm', id: 'b' }, 1, 10)).map((p) => p.component.id)).toEqual([
        'zeta',
        'requests',
      ]);
      const [alpha] = await store.adoptedPage({ kind: 'npm', id: 'Alpha' }, 1, 1);
      expect(alpha).toEqual({
        component: { kind: 'npm', id: 'alpha' },
        dependents: 2,
        read_date: '2025-01-02',
        leaf_index: 7,
        observed_date: null,
      });
      // The kind's list agrees with the walk.
      expect((await store.adoptedComponents('npm', 1)).map((a) => a.component.id)).toEqual([
        '@s/mid',
        'Alpha',
        'alpha',
        'zeta',
      ]);
    });

    it('gives each package the date of its latest reading, and moves with each census appended', async () => {
      await store.appendObservations([observed('npm', 'zeta', '2025-01-05')], notary.seal);
      await store.appendCensus([read('npm', 'zeta', '2025-01-01', 5)], notary.seal);
      await store.appendObservations([observed('npm', 'zeta', '2025-02-10')], notary.seal);
      expect(await store.adoptedPage(null, 1, 10)).toEqual([
        expect.objectContaining({ component: { kind: 'npm', id: 'zeta' }, observed_date: '2025-02-10' }),
      ]);
      // Two reads of one package in one append: the later one is its latest.
      await store.appendCensus(
        [read('npm', 'zeta', '2025-02-11', 0), read('npm', 'zeta', '2025-02-11', 8)],
        notary.seal,
      );
      expect(await store.adoptedPage(null, 1, 10)).toEqual([
        expect.objectContaining({ dependents: 8, read_date: '2025-02-11', leaf_index: 4 }),
      ]);
      await store.appendCensus([read('npm', 'zeta', '2025-02-12', 0)], notary.seal);
      expect(await store.adoptedPage(null, 1, 10)).toEqual([]);
      expect(await store.adoptedCount(0)).toBe(1);
    });

    it('walks the held components of the given kinds by key, in byte order, never a name only queued', async () => {
      await store.appendObservations(
        [
          observed('github', 'acme/xa', '2025-01-05'),
          observed('github', 'acme/x.y', '2025-01-05'),
          observed('github', 'acme/x-z', '2025-01-05'),
          observed('docker', 'docker.io/library/debian:latest', '2025-01-06'),
          observed('distro', 'debian/12', '2025-01-07'),
          observed('npm', 'zeta', '2025-01-05'),
          observed('github', 'acme/xa', '2025-02-10'),
        ],
        notary.seal,
      );
      await store.queueDiscovered([{ kind: 'github', id: 'acme/queued' }], DAY, { add: true, dailyCap: 10 });
      const kinds = ['github', 'docker', 'distro'] as const;
      const walkHeld = async (limit: number) => {
        const seen: string[] = [];
        let after: ComponentRef | null = null;
        for (;;) {
          const page = await store.heldPage(kinds, after, limit);
          expect(page.length).toBeLessThanOrEqual(limit);
          seen.push(...page.map((p) => `${p.component.kind}:${p.component.id}`));
          if (page.length < limit) return seen;
          after = page.at(-1)!.component;
        }
      };
      // Bytes, not a locale's order (which would put acme/xa first, ignoring the punctuation).
      const all = [
        'distro:debian/12',
        'docker:docker.io/library/debian:latest',
        'github:acme/x-z',
        'github:acme/x.y',
        'github:acme/xa',
      ];
      for (const limit of [1, 3, 100]) expect(await walkHeld(limit)).toEqual(all);
      expect(await store.heldPage(kinds, null, 100)).toContainEqual({
        component: { kind: 'github', id: 'acme/xa' },
        observed_date: '2025-02-10',
      });
      expect(await store.heldPage([], null, 100)).toEqual([]);
    });

    it('says which names the census counts: watched, never a discovered name no read has shown public', async () => {
      const npm = (id: string): ComponentRef => ({ kind: 'npm', id });
      await store.watchAdd([npm('watched'), npm('observed'), { kind: 'pypi', id: 'watched' }], DAY);
      await store.queueDiscovered([npm('private'), npm('shown')], DAY, { add: true, dailyCap: 100 });
      await store.appendObservations([observed('npm', 'shown', '2025-03-01')], notary.seal);
      const asked = [
        npm('watched'),
        npm('observed'),
        npm('private'),
        npm('shown'),
        npm('never'),
        { kind: 'pypi' as const, id: 'watched' },
      ];
      expect([...(await store.watchedAmong(asked))].sort()).toEqual([
        'npm:observed',
        'npm:shown',
        'npm:watched',
        'pypi:watched',
      ]);
      expect(await store.watchedAmong([])).toEqual(new Set());
      // Many at once: more names than one statement takes.
      const many = Array.from({ length: 450 }, (_, i) => npm(`bulk-${i}`));
      await store.watchAdd(many, DAY);
      expect((await store.watchedAmong([...many, npm('never')])).size).toBe(450);

      // Those never counted, by id, in pages; a census read (even a failed one) takes a name off.
      await store.appendCensus([read('npm', 'observed', '2025-03-01', null)], notary.seal);
      const uncounted: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page = await store.uncountedWatched('npm', after, 100);
        uncounted.push(...page.map((r) => r.id));
        if (page.length < 100) break;
        after = page.at(-1)!.id;
      }
      expect(uncounted).toHaveLength(452);
      expect(uncounted).toContain('watched');
      expect(uncounted).toContain('shown');
      expect(uncounted).not.toContain('observed');
      expect(uncounted).not.toContain('private');
      expect(new Set(uncounted).size).toBe(uncounted.length);
      expect(await store.uncountedWatched('pypi', null, 10)).toEqual([{ kind: 'pypi', id: 'watched' }]);
      expect(await store.uncountedWatched('cargo', null, 10)).toEqual([]);
    });
  });
}
