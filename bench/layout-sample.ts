// Answers of a big store on a fixed sample, as JSON, through the Store port only (so the code of
// layout 10 and of layout 11 can both run it): bench/migrate-layout.ts compares them across
// migration 11. argv: DATABASE_URL OUT_FILE
import { writeFileSync } from 'node:fs';
import { toBase64 } from '../src/notary/hash.js';
import { consistencyProofCoords, inclusionProofCoords } from '../src/notary/merkle.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';

const [url, out] = process.argv.slice(2);
const store = await openPostgresStore(url!, { max: 2 });
const size = await store.treeSize();
// A fixed pseudo-random sample: the same leaves and components on every run over the same log.
let seed = 25;
const next = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};
const sample: unknown[] = [];
for (let i = 0; i < 300; i++) {
  const index = next(size);
  const [leaf] = await store.leaves(index, 1);
  const proof = await store.nodeHashes(inclusionProofCoords(index, size).flat());
  sample.push({
    index,
    bytes: Buffer.from(leaf!.bytes).toString('base64'),
    hash: toBase64(leaf!.hash),
    logged_at: leaf!.logged_at,
    proof: proof.map(toBase64),
  });
  const record = JSON.parse(Buffer.from(leaf!.bytes).toString('utf8')) as { kind?: 'github'; id?: string };
  if (record.kind && record.id) {
    const ref = { kind: record.kind, id: record.id };
    sample.push({
      ref,
      version: await store.componentVersion(ref),
      at: await Promise.all(
        ['2025-01-01', '2025-01-02', '2025-01-05', '2026-01-01'].map((d) => store.seriesAt(ref, d)),
      ),
      all: await store.observationsOf(ref),
    });
  }
}
const heads = await store.heads(0, 1_000_000);
const consistency = await store.nodeHashes(
  consistencyProofCoords(heads[Math.floor(heads.length / 2)]!.tree_size, size).flat(),
);
sample.push({ size, head: await store.latestHead(), heads: heads.length, consistency: consistency.map(toBase64) });
sample.push({ changes: await store.stateChanges({ fromLeaf: next(size), untilLeaf: size, since: null, limit: 100 }) });
await store.close();
writeFileSync(out!, JSON.stringify(sample));
console.log(`sampled ${sample.length} answers of a ${size.toLocaleString('en')}-leaf log`);
