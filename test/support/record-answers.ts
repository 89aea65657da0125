import type { ComponentRef } from '../../src/domain/component.js';
import { toBase64 } from '../../src/notary/hash.js';
import { consistencyProofCoords, inclusionProofCoords } from '../../src/notary/merkle.js';
import type { Store } from '../../src/storage/store.js';

/**
 * Everything a store answers about its record, as JSON: each leaf's bytes and hash, every head,
 * every inclusion and consistency proof's node hashes, each component's series and reading on
 * each date, its observations, version and census, the change feed, search and the watch list.
 * Two stores holding the same record give the same text, whatever their layout: the migration
 * test compares this before and after migrating. Only Store methods that every layout has.
 */
export async function recordAnswers(store: Store, refs: ComponentRef[], dates: string[]): Promise<string> {
  const size = await store.treeSize();
  const leaves = (await store.leaves(0, size)).map((l) => ({
    index: l.index,
    bytes: Buffer.from(l.bytes).toString('base64'),
    hash: toBase64(l.hash),
    logged_at: l.logged_at,
  }));
  const heads = await store.heads(0, 10_000);
  const proofs: Record<string, string[]> = {};
  for (const head of heads) {
    // Every leaf at the latest head, every seventh at the others: each block edge and level is met.
    const step = head === heads.at(-1) ? 1 : 7;
    for (let i = 0; i < head.tree_size; i += step) {
      const coords = inclusionProofCoords(i, head.tree_size).flat();
      proofs[`inclusion ${i} ${head.tree_size}`] = (await store.nodeHashes(coords)).map(toBase64);
    }
    for (const earlier of heads) {
      if (earlier.tree_size === 0 || earlier.tree_size >= head.tree_size) continue;
      const coords = consistencyProofCoords(earlier.tree_size, head.tree_size).flat();
      proofs[`consistency ${earlier.tree_size} ${head.tree_size}`] = (await store.nodeHashes(coords)).map(toBase64);
    }
  }
  const components: Record<string, unknown> = {};
  for (const ref of refs) {
    const observations = await store.observationsOf(ref);
    components[`${ref.kind}:${ref.id}`] = {
      observations,
      version: await store.componentVersion(ref),
      census: await store.latestCensus(ref),
      census_version: await store.censusVersion(ref),
      at: Object.fromEntries(await Promise.all(dates.map(async (d) => [d, await store.seriesAt(ref, d)] as const))),
      each: await Promise.all(observations.map((o) => store.observationAt(ref, o.leaf_index))),
    };
  }
  const many = await store.observationsOfMany(refs);
  const firstLogged: Record<string, number | null> = {};
  for (const leaf of leaves) firstLogged[leaf.logged_at] = await store.firstLeafLoggedFrom(leaf.logged_at);
  firstLogged['9999-01-01'] = await store.firstLeafLoggedFrom('9999-01-01');
  firstLogged['2000-01-01'] = await store.firstLeafLoggedFrom('2000-01-01');
  const owners = [...new Set(refs.filter((r) => r.kind === 'github').map((r) => r.id.split('/')[0]!))];
  return JSON.stringify({
    size,
    leaves,
    heads,
    latest: await store.latestHead(),
    proofs,
    components,
    many: [...many].sort(([a], [b]) => (a < b ? -1 : 1)),
    owners: await Promise.all(
      owners.map(async (o) => Promise.all(dates.map((d) => store.seriesUnderOwner('github', o, d)))),
    ),
    changes: await store.stateChanges({ fromLeaf: 0, untilLeaf: size, since: null, limit: 1_000 }),
    changes_since: await store.stateChanges({ fromLeaf: 1, untilLeaf: size, since: dates[1] ?? null, limit: 3 }),
    first_logged: firstLogged,
    adopted: await store.adoptedComponents('npm', 0),
    key_sets: await store.keySets(),
    search: await store.heldByPrefix('a', 50),
    watch: await store.watchList(),
  });
}
