// bench:pages — package-page throughput as a ratio to the entity JSON endpoint, both served by the
// same process over the same seeded SQLite file, measured in the same run (autocannon, interleaved
// rounds, medians). Target ≥ 0.5: a repeat page read comes from the page cache, keyed like the
// entity answers by the component's version.
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { addDays } from '../src/domain/calendar.js';
import type { NewCensus } from '../src/domain/census.js';
import type { NewObservation } from '../src/domain/observation.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';

const COMPONENTS = 200;
const DAYS = 120;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const dir = mkdtempSync(join(tmpdir(), 'tended-bench-pages-'));
const dbPath = join(dir, 'tended.db');
const store = await openSqliteStore(dbPath);
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const notary = logNotary('bench/log', privateKey, publicKey);
await store.initialiseLog(notary.seal);
for (let day = 0; day < DAYS; day++) {
  const date = addDays('2025-01-01', day);
  const batch: NewObservation[] = [];
  for (let r = 0; r < COMPONENTS; r++) {
    const state = (day + r) % 90 < 60 ? 'alive' : 'dormant';
    const last = `${addDays(date, -((day + r) % 200))}T00:00:00.000Z`;
    batch.push({
      component: { kind: 'github', id: `org${r % 20}/repo${r}` },
      observed_at: `${date}T06:00:00Z`,
      observation_date: date,
      state,
      source: `https://api.github.com/repos/org${r % 20}/repo${r}`,
      evidence: { http_status: 200, last_commit: last, archived: false },
      method: 'github: default-branch head commit date and archived flag',
      corrects: null,
    });
    batch.push({
      component: { kind: 'npm', id: `pkg${r}` },
      observed_at: `${date}T06:00:00Z`,
      observation_date: date,
      state,
      source: `https://registry.npmjs.org/pkg${r}`,
      evidence: { http_status: 200, last_published: last, deprecated: null },
      method: 'npm registry full packument',
      corrects: null,
    });
  }
  await store.appendObservations(batch, notary.seal);
}
const census: NewCensus[] = Array.from({ length: COMPONENTS }, (_, r) => ({
  component: { kind: 'npm', id: `pkg${r}` },
  read_at: '2025-04-30T03:00:00Z',
  read_date: '2025-04-30',
  dependents: 10 + r,
  source: `https://packages.ecosyste.ms/api/v1/registries/npmjs.org/packages/pkg${r}`,
  evidence: { http_status: 200 },
  method: 'ecosyste.ms dependent_packages_count',
}));
await store.appendCensus(census, notary.seal);
await store.close();
console.log(`seeded ${COMPONENTS} repositories and ${COMPONENTS} npm packages × ${DAYS} days, with a census`);

// A port the system hands out now, so runs beside other benchmarks on the machine do not collide.
const PORT = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

const pagePath = '/npm/pkg7?as_of=2025-03-15';
const entityPath = '/api/v1/entity/org7/repo7?as_of=2025-03-15';

function start(): Promise<ChildProcess> {
  const child = fork(new URL('./read-server.ts', import.meta.url).pathname, ['tended', String(PORT), dbPath], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const server = await start();
const page = await fetch(`http://127.0.0.1:${PORT}${pagePath}`);
const pageBytes = (await page.arrayBuffer()).byteLength;
const entityBytes = (await (await fetch(`http://127.0.0.1:${PORT}${entityPath}`)).arrayBuffer()).byteLength;
if (page.status !== 200) throw new Error(`the package page answered ${page.status}`);
console.log(
  `package page: ${pageBytes} bytes; entity JSON: ${entityBytes} bytes; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each`,
);

async function run(path: string): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORT}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const entityRates: number[] = [];
const pageRates: number[] = [];
await run(entityPath); // warm-up, not counted
await run(pagePath);
for (let round = 0; round < ROUNDS; round++) {
  entityRates.push(await run(entityPath));
  pageRates.push(await run(pagePath));
}
server.kill();
rmSync(dir, { recursive: true, force: true });
const ratio = median(pageRates) / median(entityRates);
console.log(
  `entity JSON with as_of: ${entityRates.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(entityRates).toFixed(0)})`,
);
console.log(
  `package page with as_of: ${pageRates.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(pageRates).toFixed(0)})`,
);
console.log(`bench:pages ratio page/entity = ${ratio.toFixed(2)} (target ≥ 0.5)`);
