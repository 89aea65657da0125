/**
 * bench:scale — Tended past one machine, on PostgreSQL with BENCH_OBSERVATIONS observations
 * (default 10,000,000) generated through the real append path.
 *
 *   npm run bench:scale
 *     BENCH_DATABASE_URL  the database to fill and reuse (default postgres://postgres@127.0.0.1:5432/tended_scale)
 *     BENCH_OBSERVATIONS  how many observations the log must hold before measuring (default 10,000,000)
 *     BENCH_FRESH=1       drop and recreate the database first
 *     BENCH_COMPONENTS    how many components hold them (default min(250,000, BENCH_OBSERVATIONS))
 *
 * The generated log is kept between runs (filling it takes a while); its checkpoint key is kept in
 * data/bench-scale/. Each run then measures, with baselines from the same run:
 *   1. append throughput into one sequencer: one worker, then two at once, each over new components
 *      and then the same ones again;
 *   2. entity reads with as_of on random components (the compiled `tended serve`, 50 connections):
 *      p50/p99 alone and while the two workers append, against bare node:http serving one answer;
 *   3. pages of the change feed from random places in the log;
 *   4. `tended verify` over the whole store, against the SHA-256 work alone over the same leaves.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { hash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { openPostgresStore } from '../src/storage/postgres/open.js';

const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tended_scale';
const TARGET = Number(process.env.BENCH_OBSERVATIONS ?? 10_000_000);
// Ten readings a component up to 1 M components (a followed registry's size, DESIGN §8b), then longer series.
const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? Math.min(1_000_000, Math.ceil(TARGET / 10)));
const DAYS = Math.ceil(TARGET / COMPONENTS);
const FIRST_DATE = '2025-01-01';
const BATCH = 5_000;
const THROUGHPUT_COMPONENTS = Number(process.env.BENCH_APPEND ?? 100_000);
const ORIGIN = 'tended.local/log/v1';
const ROOT = new URL('..', import.meta.url).pathname;
const KEY_DIR = join(ROOT, 'data', 'bench-scale');
const KEY = join(KEY_DIR, 'checkpoint-key.pem');
const PORT = 18790;
const BARE_PORT = 18791;

const dbName = new URL(URL_).pathname.slice(1);
const admin = new URL(URL_);
admin.pathname = '/postgres';

async function sqlOn<R extends pg.QueryResultRow>(url: string, text: string): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query<R>(text);
  } finally {
    await client.end();
  }
}

async function treeSize(): Promise<number> {
  try {
    return Number(
      (await sqlOn<{ tree_size: string }>(URL_, 'SELECT tree_size FROM log_state WHERE id = 1')).rows[0]?.tree_size ??
        0,
    );
  } catch {
    return 0;
  }
}

interface AppendPart {
  appended: number;
  seconds: number;
}
interface AppendRun extends AppendPart {
  /** The slowest worker's time from its first append to its last: process start not counted. */
  working: number;
  first: AppendPart;
  later: AppendPart;
}

/** Runs `workers` append processes over one prefix; resolves with what they appended and how long it took. */
function appendWith(
  workers: number,
  prefix: string,
  components: number,
  days: number,
  progress = false,
  doneFile?: string,
): Promise<AppendRun> {
  const started = performance.now();
  const runs = Array.from(
    { length: workers },
    (_, w) =>
      new Promise<AppendPart & { first: AppendPart; later: AppendPart }>((resolve, reject) => {
        const child = fork(
          join(ROOT, 'bench', 'scale-worker.ts'),
          [
            URL_,
            KEY,
            ORIGIN,
            prefix,
            FIRST_DATE,
            String(days),
            String(components),
            String(BATCH),
            String(w),
            String(workers),
          ],
          {
            execArgv: ['--import', 'tsx'],
            stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
            env: {
              ...process.env,
              ...(progress ? { BENCH_PROGRESS: '1' } : {}),
              ...(doneFile ? { BENCH_DONE_BATCHES: doneFile } : {}),
            },
          },
        );
        let out = '';
        child.stdout!.on('data', (d) => (out += d));
        child.on('exit', (code) =>
          code === 0
            ? resolve(
                JSON.parse(out.trim().split('\n').at(-1)!) as AppendPart & { first: AppendPart; later: AppendPart },
              )
            : reject(new Error(`append worker ${w} exited with ${code}`)),
        );
      }),
  );
  // Workers run side by side, so a part's time is the slowest worker's.
  const part = (done: AppendPart[]): AppendPart => ({
    appended: done.reduce((n, d) => n + d.appended, 0),
    seconds: Math.max(...done.map((d) => d.seconds)),
  });
  return Promise.all(runs).then((done) => ({
    appended: done.reduce((n, d) => n + d.appended, 0),
    seconds: (performance.now() - started) / 1000,
    working: Math.max(...done.map((d) => d.seconds)),
    first: part(done.map((d) => d.first)),
    later: part(done.map((d) => d.later)),
  }));
}

// --- 0. the log: BENCH_OBSERVATIONS observations, appended by two workers -----------------------
if (process.env.BENCH_FRESH === '1') {
  await sqlOn(admin.href, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(KEY_DIR, { recursive: true, force: true });
}
if ((await sqlOn(admin.href, `SELECT 1 FROM pg_database WHERE datname = '${dbName}'`)).rowCount === 0) {
  await sqlOn(admin.href, `CREATE DATABASE ${dbName}`);
}
mkdirSync(KEY_DIR, { recursive: true });
let size = await treeSize();
if (size < TARGET) {
  // An interrupted fill resumes: a batch is (date, BATCH components), appended whole or not at all,
  // so asking for each batch's first observation tells which are in.
  const chunks = Math.ceil(COMPONENTS / BATCH);
  const done: number[] = [];
  if (size > 0) {
    // Each chunk's first component: the dates its series holds are the batches of that chunk that are in.
    const store = await openPostgresStore(URL_, { max: 2 });
    const held = new Set<string>();
    for (let k = 0; k < chunks; k++) {
      const id = `scale${(k * BATCH) % 1000}/repo${k * BATCH}`;
      for (const entry of (await store.seriesAt({ kind: 'github', id }, '9999-12-31')).series)
        if (entry.corrects === null) held.add(`${id} ${entry.observation_date}`);
    }
    await store.close();
    for (let b = 0; b < DAYS * chunks; b++) {
      const date = new Date(Date.parse(FIRST_DATE) + Math.floor(b / chunks) * 86_400_000).toISOString().slice(0, 10);
      const k = b % chunks;
      if (held.has(`scale${(k * BATCH) % 1000}/repo${k * BATCH} ${date}`)) done.push(b);
    }
  }
  const doneFile = join(KEY_DIR, 'done-batches.json');
  writeFileSync(doneFile, JSON.stringify(done));
  console.log(
    `filling ${dbName}: ${COMPONENTS} components × ${DAYS} dates through the append path, two workers${done.length ? ` (resuming: ${done.length} batches already in)` : ''}…`,
  );
  const fill = await appendWith(2, 'scale', COMPONENTS, DAYS, true, doneFile);
  console.log(
    `filled: ${fill.appended} observations in ${fill.seconds.toFixed(0)} s = ${(fill.appended / fill.seconds).toFixed(0)} observations/s (2 workers, log growing from 0)`,
  );
  size = await treeSize();
  // Planner statistics and the visibility map for the grown tables, as autovacuum keeps them on a
  // running service: without the map, the series index is read with a visit to each row's page.
  await sqlOn(URL_, 'VACUUM (ANALYZE)');
}
const dbBytes = Number((await sqlOn<{ b: string }>(URL_, `SELECT pg_database_size('${dbName}') AS b`)).rows[0]!.b);
console.log(`log: ${size.toLocaleString('en')} leaves in PostgreSQL (${(dbBytes / 2 ** 30).toFixed(2)} GiB)`);
// Bytes on disk per observation: every table of the record with its indexes and TOAST, over the leaves.
{
  const { rows } = await sqlOn<{ relname: string; bytes: string }>(
    URL_,
    `SELECT c.relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname = current_schema() ORDER BY 2 DESC`,
  );
  const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
  const components = Number((await sqlOn<{ n: string }>(URL_, 'SELECT count(*) AS n FROM components')).rows[0]!.n);
  console.log(
    `bytes on disk per observation: ${(total / size).toFixed(1)} (tables + indexes + TOAST: ${(total / 2 ** 20).toFixed(0)} MiB over ${size.toLocaleString('en')} leaves and ${components.toLocaleString('en')} components); budget 200, goal 120, ratio to budget = ${(total / size / 200).toFixed(2)}`,
  );
  console.log(
    `  by table: ${rows
      .filter((r) => Number(r.bytes) > 1 << 20)
      .map((r) => `${r.relname} ${(Number(r.bytes) / size).toFixed(1)}`)
      .join(', ')}`,
  );
}

// --- 1. the service and a bare baseline ------------------------------------------------------------
function startTended(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: URL_,
      TENDED_SIGNING_KEY: KEY,
      TENDED_ORIGIN: ORIGIN,
      TENDED_OBSERVER: 'off',
      TENDED_RATE_LIMIT_FREE: '1000000000',
      PORT: String(PORT),
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('listening') && resolve(child));
    child.once('exit', (code) => reject(new Error(`tended serve exited with ${code}`)));
  });
}
const tended = await startTended();
const randomPath = () => {
  const c = Math.floor(Math.random() * COMPONENTS);
  const day = 1 + Math.floor(Math.random() * (DAYS + 10));
  const asOf = new Date(Date.parse(FIRST_DATE) + day * 86_400_000).toISOString().slice(0, 10);
  return `/api/v1/entity/scale${c % 1000}/repo${c}?as_of=${asOf}`;
};
// The baseline: bare node:http in its own process (as Tended is), sending one answer's bytes with
// the headers Tended sent with them (bench/read-server.ts, as bench:read runs it).
const first = await fetch(`http://127.0.0.1:${PORT}${randomPath()}`);
const sampleDir = mkdtempSync(join(tmpdir(), 'tended-bench-scale-'));
writeFileSync(join(sampleDir, 'body'), Buffer.from(await first.arrayBuffer()));
writeFileSync(
  join(sampleDir, 'headers.json'),
  JSON.stringify(
    [...first.headers].filter(([name]) => name !== 'date' && name !== 'connection' && name !== 'keep-alive').flat(),
  ),
);
const bare = fork(
  join(ROOT, 'bench', 'read-server.ts'),
  ['bare', String(BARE_PORT), join(sampleDir, 'body'), join(sampleDir, 'headers.json')],
  { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
await new Promise<void>((resolve, reject) => {
  bare.once('message', () => resolve());
  bare.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
});

interface ReadFigures {
  rps: number;
  p50: number;
  p99: number;
}
async function reads(port: number, seconds: number, connections = 50, path = randomPath): Promise<ReadFigures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors on port ${port}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}
const fmt = (r: ReadFigures) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`;

await reads(PORT, 5); // warm-up: the pool and the page cache, not counted
const bareReads = await reads(BARE_PORT, 10);
const quietReads = await reads(PORT, 15);
console.log(`entity reads with as_of, random components: ${fmt(quietReads)}`);
console.log(
  `bare node:http, one answer's bytes:        ${fmt(bareReads)}; ratio tended/bare req/s = ${(quietReads.rps / bareReads.rps).toFixed(2)}`,
);
// Fewer connections: latency as one client pool sees it, not queueing behind 50.
const bare8 = await reads(BARE_PORT, 10, 8);
const quiet8 = await reads(PORT, 15, 8);
console.log(`entity reads, 8 connections:               ${fmt(quiet8)}`);
console.log(
  `bare node:http, 8 connections:             ${fmt(bare8)}; ratio tended/bare req/s = ${(quiet8.rps / bare8.rps).toFixed(2)}`,
);
// What the database allows: the store's own read of an uncached answer (the series and the one
// reading, one query), 8 at a time from this process, with no HTTP and no answer made.
{
  const store = await openPostgresStore(URL_, { max: 8 });
  let done = 0;
  const until = performance.now() + 8_000;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (performance.now() < until) {
        const c = Math.floor(Math.random() * COMPONENTS);
        const day = 1 + Math.floor(Math.random() * (DAYS + 10));
        const asOf = new Date(Date.parse(FIRST_DATE) + day * 86_400_000).toISOString().slice(0, 10);
        await store.seriesAt({ kind: 'github', id: `scale${c % 1000}/repo${c}` }, asOf);
        done++;
      }
    }),
  );
  await store.close();
  const perSecond = done / 8;
  console.log(
    `the store's read alone, 8 at a time:       ${perSecond.toFixed(0)} reads/s, no HTTP; ratio to bare (8 connections) = ${(perSecond / bare8.rps).toFixed(2)}`,
  );
  console.log(
    `uncached entity reads / the store's read alone (8 connections): ratio = ${(quiet8.rps / perSecond).toFixed(2)} (issue 25: ≥ 0.6, goal 0.8); p99 ${quiet8.p99} ms (≤ 10)`,
  );
}

// Popular components: 200 of them at one date, so their answers stay in the answer cache; while
// the log is unchanged the store answers the version check from memory, with no query.
const popularPath = () => {
  const c = Math.floor(Math.random() * 200);
  return `/api/v1/entity/scale${c % 1000}/repo${c}?as_of=2025-02-01`;
};
await reads(PORT, 2, 8, popularPath); // fills the cache, not counted
const barePopular = await reads(BARE_PORT, 10, 50, popularPath);
const popular = await reads(PORT, 10, 50, popularPath);
console.log(`cached reads, 200 popular components:      ${fmt(popular)}`);
console.log(
  `bare node:http, just before:               ${fmt(barePopular)}; ratio tended/bare req/s = ${(popular.rps / barePopular.rps).toFixed(2)}`,
);

// The change feed, paged from random places in the log: one page of up to 100 changes a request.
const feedMs: number[] = [];
for (let i = 0; i < 60; i++) {
  const after = Math.floor(Math.random() * size);
  const t = performance.now();
  const page = await fetch(`http://127.0.0.1:${PORT}/api/v1/changes?after=${after}&limit=100`);
  if (page.status !== 200) throw new Error(`/api/v1/changes answered ${page.status}`);
  await page.arrayBuffer();
  feedMs.push(performance.now() - t);
}
feedMs.sort((a, b) => a - b);
console.log(
  `change feed pages (after=<random leaf>, limit=100), one at a time: p50 ${feedMs[30]!.toFixed(0)} ms, p99 ${feedMs[59]!.toFixed(0)} ms`,
);

// --- 2. append throughput: one sequencer fed by one worker, then by two; then two while reads go on -
// Each worker appends BENCH_APPEND components on two days: the first registers them, the second
// re-reads them (a daily pass). Rates are over the workers' own time, process start not counted.
const run = Date.now().toString(36);
const rate = (r: AppendPart) => r.appended / r.seconds;
const describe = (r: AppendRun) =>
  `${r.appended} observations in ${r.working.toFixed(1)} s = ${rate({ appended: r.appended, seconds: r.working }).toFixed(0)}/s (new components ${rate(r.first).toFixed(0)}/s${r.later.appended > 0 ? `, known ones ${rate(r.later).toFixed(0)}/s` : ''})`;
const one = await appendWith(1, `tput${run}a-`, THROUGHPUT_COMPONENTS, 2);
console.log(`append, one sequencer, 1 worker:  ${describe(one)}`);
const two = await appendWith(2, `tput${run}b-`, THROUGHPUT_COMPONENTS, 2);
const oneRate = one.appended / one.working;
const twoRate = two.appended / two.working;
console.log(
  `append, one sequencer, 2 workers: ${describe(two)}; ratio 2 workers/1 worker = ${(twoRate / oneRate).toFixed(2)} (issue 25: ≥ 20,000/s, goal 40,000; a leaf is made before the lock, so one worker's making overlaps the other's writing)`,
);
const loadedRunning = appendWith(2, `tput${run}c-`, THROUGHPUT_COMPONENTS, 1);
const loadedReads = await reads(PORT, 10);
const loaded = await loadedRunning;
console.log(`entity reads while 2 workers append:       ${fmt(loadedReads)} (the workers: ${describe(loaded)})`);
tended.kill();
bare.removeAllListeners('exit');
bare.kill();
rmSync(sampleDir, { recursive: true, force: true });

// --- 3. full verification against the hashing it cannot avoid -------------------------------------
const finalSize = await treeSize();
const verifyStarted = performance.now();
const verifyOut = execFileSync(process.execPath, [join(ROOT, 'dist', 'main.js'), 'verify'], {
  env: { ...process.env, DATABASE_URL: URL_, TENDED_SIGNING_KEY: KEY, TENDED_ORIGIN: ORIGIN, TENDED_OBSERVER: 'off' },
  encoding: 'utf8',
  maxBuffer: 1 << 20,
});
const verifySeconds = (performance.now() - verifyStarted) / 1000;

// The raw side: the same 2N−1 SHA-256 calls (0x00‖leaf, then 0x01‖left‖right up the tree) with
// Node's one-shot hash, as bench:verify's raw side. The leaves are read from the database page by
// page and their inputs (0x00‖bytes) built before the clock starts: only the hashing is timed.
let hashMs = 0;
const leafStore = await openPostgresStore(URL_, { max: 2 });
const stack: Buffer[] = [];
const stackSizes: number[] = [];
const nodeInput = Buffer.alloc(65, 1);
const PAGE = 20_000;
for (let from = 0; from < finalSize; from += PAGE) {
  const inputs = (await leafStore.leafBytes(from, Math.min(PAGE, finalSize - from))).map((bytes) => {
    const input = Buffer.allocUnsafe(bytes.length + 1);
    input[0] = 0;
    input.set(bytes, 1);
    return input;
  });
  const t = performance.now();
  for (const input of inputs) {
    let node = hash('sha256', input, 'buffer');
    let nodeSize = 1;
    while (stackSizes.length > 0 && stackSizes.at(-1) === nodeSize) {
      stack.pop()!.copy(nodeInput, 1);
      node.copy(nodeInput, 33);
      node = hash('sha256', nodeInput, 'buffer');
      nodeSize += stackSizes.pop()!;
    }
    stack.push(node);
    stackSizes.push(nodeSize);
  }
  hashMs += performance.now() - t;
}
await leafStore.close();
console.log(verifyOut.trim().split('\n').at(-1));
console.log(
  `tended verify over ${finalSize.toLocaleString('en')} leaves: ${verifySeconds.toFixed(1)} s (process start, reading PostgreSQL, rebuilding, heads and checkpoint)`,
);
console.log(
  `raw SHA-256 of the same ${(2 * finalSize - 1).toLocaleString('en')} inputs: ${(hashMs / 1000).toFixed(1)} s; ratio verify/raw hashing = ${(verifySeconds / (hashMs / 1000)).toFixed(2)}`,
);
writeFileSync(join(KEY_DIR, 'last-run.txt'), `${new Date().toISOString()}\n`);
