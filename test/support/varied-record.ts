import type { ComponentRef } from '../../src/domain/component.js';
import type { NewObservation } from '../../src/domain/observation.js';
import type { State } from '../../src/domain/state.js';
import type { KeySetDocument } from '../../src/notary/key-set.js';
import type { Store } from '../../src/storage/store.js';
import type { LogNotary } from '../../src/operations/deps.js';
import { githubObservation } from './record.js';

/**
 * A record with something of every kind a store keeps, written through the Store port only (so
 * any layout's code can write it): observations of several kinds under two owners, appended in
 * batches whose heads fall inside blocks and across them, corrections, census reads, key-set
 * versions, a watch list: 168 leaves, 16 heads. test/fixtures/layout-v10 holds one written by the
 * previous layout's code; the migration test compares its answers with the same record migrated.
 */
export const VARIED_COMPONENTS: ComponentRef[] = [
  ...Array.from({ length: 6 }, (_, i) => ({ kind: 'github' as const, id: `acme/repo-${i}` })),
  ...Array.from({ length: 4 }, (_, i) => ({ kind: 'github' as const, id: `other/tool-${i}` })),
  ...Array.from({ length: 5 }, (_, i) => ({ kind: 'npm' as const, id: `@acme/pkg-${i}` })),
  ...Array.from({ length: 3 }, (_, i) => ({ kind: 'pypi' as const, id: `acme-lib-${i}` })),
];

export const VARIED_DATES = ['2024-12-31', '2025-01-01', '2025-01-04', '2025-01-07', '2025-01-09', '2025-02-01'];

const STATES: State[] = ['alive', 'alive', 'dormant', 'not_observed', 'abandoned', 'archived', 'deleted'];

function observationOf(ref: ComponentRef, day: number, c: number): NewObservation {
  const date = `2025-01-${String(day).padStart(2, '0')}`;
  const state = STATES[(c + Math.floor(day / 3)) % STATES.length]!;
  if (ref.kind === 'github') return githubObservation(ref.id, date, state);
  return {
    component: ref,
    observed_at: `${date}T0${c % 10}:30:00Z`,
    observation_date: date,
    state,
    source: `https://registry.example/${ref.kind}/${ref.id}`,
    // Keys in no sorted order, and nested: the leaf keeps them in RFC 8785 order.
    evidence: {
      versions: c + day,
      latest: { published_at: `${date}T00:00:00Z`, version: `1.${day}.0` },
      http_status: 200,
    },
    method: `${ref.kind}: latest version's publish time`,
    corrects: null,
  };
}

export async function writeVariedRecord(store: Store, notary: LogNotary): Promise<void> {
  await store.initialiseLog(notary.seal);
  await store.watchAdd(VARIED_COMPONENTS.slice(0, 4), '2025-01-01T00:00:00Z');
  // Batches of 1, 5, 18, 18, …: heads at sizes inside a block, on a block's edge and past 64.
  const batches = [1, 5, 10, 18, 18, 18, 18, 18, 18, 18, 18];
  let day = 1;
  let next = 0;
  for (const size of batches) {
    const batch: NewObservation[] = [];
    while (batch.length < size) {
      const c = next % VARIED_COMPONENTS.length;
      batch.push(observationOf(VARIED_COMPONENTS[c]!, day, c));
      next++;
      if (next % VARIED_COMPONENTS.length === 0) day++;
    }
    await store.appendObservations(batch, notary.seal);
  }
  // A correction of each of two readings, on the day each was read.
  for (const ref of [VARIED_COMPONENTS[0]!, VARIED_COMPONENTS[11]!]) {
    const [first] = await store.observationsOf(ref);
    await store.appendObservations(
      [
        {
          ...withoutLeaf(first!),
          observed_at: `${first!.observation_date}T23:00:00Z`,
          state: 'alive',
          corrects: first!.leaf_index,
        },
      ],
      notary.seal,
    );
  }
  await store.appendCensus(
    VARIED_COMPONENTS.filter((r) => r.kind === 'npm').map((component, i) => ({
      component,
      read_at: '2025-01-08T03:00:00Z',
      read_date: '2025-01-08',
      dependents: i === 0 ? null : i * 40,
      source: `https://packages.ecosyste.ms/api/v1/registries/npmjs.org/packages/${component.id}`,
      evidence: { http_status: i === 0 ? 503 : 200 },
      method: 'ecosyste.ms dependent_packages_count',
    })),
    notary.seal,
  );
  const doc: KeySetDocument = {
    version: 1,
    issued_at: '2025-01-08T00:00:00Z',
    keys: [],
    log: {
      origin: notary.origin,
      vkeys: [{ vkey: notary.vkey, status: 'active', valid_from: '2025-01-08T00:00:00Z', valid_until: null }],
    },
  };
  await store.appendKeySet(
    { document: doc, envelope: { payloadType: 'application/vnd.tended.keyset+json', payload: 'e30=', signatures: [] } },
    notary.seal,
  );
}

function withoutLeaf<T extends { leaf_index: number }>(o: T): Omit<T, 'leaf_index'> {
  const { leaf_index: _leaf, ...rest } = o;
  return rest;
}
