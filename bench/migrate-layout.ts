// Migration 11 on a store the code of layout 10 filled (bench:scale at that code, e.g. a worktree
// of commit 67a66ca): the time it takes, the size before and after, and a fixed sample of answers
// compared byte for byte (bench/layout-sample.ts, run by the old code first).
//   BENCH_DATABASE_URL=postgres://…/tended_scale_v10 BENCH_BEFORE=before.json npx tsx bench/migrate-layout.ts
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../src/storage/postgres/open.js';

const url = process.env.BENCH_DATABASE_URL!;
const beforeFile = process.env.BENCH_BEFORE!;
const ROOT = new URL('..', import.meta.url).pathname;
async function databaseBytes(): Promise<{ bytes: number; leaves: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const bytes = Number(
    (await client.query<{ b: string }>('SELECT pg_database_size(current_database()) AS b')).rows[0]!.b,
  );
  const leaves = Number((await client.query<{ n: string }>('SELECT tree_size AS n FROM log_state')).rows[0]!.n);
  await client.end();
  return { bytes, leaves };
}
const start = await databaseBytes();
console.log(
  `layout 10: ${start.leaves.toLocaleString('en')} leaves, ${(start.bytes / 2 ** 20).toFixed(0)} MiB = ${(start.bytes / start.leaves).toFixed(0)} bytes a leaf`,
);
const t = performance.now();
const store = await openPostgresStore(url, { max: 2 });
const seconds = (performance.now() - t) / 1000;
await store.close();
const client = new pg.Client({ connectionString: url });
await client.connect();
await client.query('VACUUM (FULL, ANALYZE)');
await client.end();
const end = await databaseBytes();
console.log(
  `migration 11: ${seconds.toFixed(1)} s = ${(start.leaves / seconds).toFixed(0)} leaves/s; after it (and VACUUM FULL): ${(end.bytes / 2 ** 20).toFixed(0)} MiB = ${(end.bytes / end.leaves).toFixed(0)} bytes a leaf; ratio after/before = ${(end.bytes / start.bytes).toFixed(3)}`,
);
const afterFile = `${beforeFile}.after.json`;
execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'layout-sample.ts'), url, afterFile], {
  stdio: 'inherit',
});
const same = readFileSync(beforeFile, 'utf8') === readFileSync(afterFile, 'utf8');
console.log(
  `sampled answers (leaves, hashes, proofs, series, readings, heads, change feed) before and after: ${same ? 'identical, byte for byte' : 'DIFFERENT'}`,
);
if (!same) process.exit(1);
