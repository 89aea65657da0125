// bench:read — entity reads with as_of on SQLite (answer-cache hits), as requests/s relative to
// bare node:http serving the same bytes with the same headers, measured in the same run
// (autocannon, same connections, interleaved rounds, medians). Also serve's RSS, idle and after.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { generateKeyPairSync } from 'node:crypto';
import { addDays } from '../src/domain/calendar.js';
import type { NewObservation } from '../src/domain/observation.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';

const REPOS = 200;
const DAYS = 120;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const dir = mkdtempSync(join(tmpdir(), 'tended-bench-'));
const dbPath = join(dir, 'tended.db');
const store = await openSqliteStore(dbPath);
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const notary = logNotary('bench/log', privateKey, publicKey);
await store.initialiseLog(notary.seal);
for (let day = 0; day < DAYS; day++) {
  const date = addDays('2025-01-01', day);
  const batch: NewObservation[] = [];
  for (let r = 0; r < REPOS; r++) {
    batch.push({
      component: { kind: 'github', id: `org${r % 20}/repo${r}` },
      observed_at: `${date}T06:00:00Z`,
      observation_date: date,
      state: (day + r) % 90 < 60 ? 'alive' : 'dormant',
      source: `https://api.github.com/repos/org${r % 20}/repo${r}`,
      evidence: { http_status: 200, last_commit: `${addDays(date, -((day + r) % 200))}T00:00:00Z`, archived: false },
      method: 'github: default-branch head commit date and archived flag',
      corrects: null,
    });
  }
  await store.appendObservations(batch, notary.seal);
}
await store.close();
console.log(`seeded ${REPOS} repositories × ${DAYS} days = ${REPOS * DAYS} observations`);

const path = '/api/v1/entity/org7/repo7?as_of=2025-03-15';

function start(mode: 'tended' | 'bare', port: number, args: string[], env: Record<string, string> = {}) {
  const child = fork(new URL('./read-server.ts', import.meta.url).pathname, [mode, String(port), ...args], {
    // BENCH_PROFILE=DIR: the hot-path server writes a CPU profile there (it exits on SIGINT to write it).
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_PROFILE && port === 18731
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
        : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise<ChildProcess>((resolve, reject) => {
    child.once('message', () => {
      child.removeAllListeners('exit');
      resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

/** The server's resident set size, in MB. */
function rssOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m: { rss: number }) => resolve(m.rss / (1024 * 1024)));
    child.send('rss');
  });
}

const tended = await start('tended', 18731, [dbPath]);
// The same app with the hot path off: what the framework alone makes of the same reads, for comparison.
const framework = await start('tended', 18733, [dbPath], { BENCH_HOT: 'off' });
const idleRss = await rssOf(tended);
const first = await fetch(`http://127.0.0.1:18731${path}`);
const answer = Buffer.from(await first.arrayBuffer());
// The bare server sends the same header list (Node itself adds Date and the keep-alive pair to both).
const sameHeaders = [...first.headers]
  .filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
  .flat();
const bodyPath = join(dir, 'answer.json');
const headersPath = join(dir, 'headers.json');
writeFileSync(bodyPath, answer);
writeFileSync(headersPath, JSON.stringify(sameHeaders));
const bare = await start('bare', 18732, [bodyPath, headersPath]);
await fetch(`http://127.0.0.1:18731${path}`); // the hot path answers from here on (the cache holds it)
const viaFramework = Buffer.from(await (await fetch(`http://127.0.0.1:18733${path}`)).arrayBuffer());
if (!viaFramework.equals(answer)) throw new Error('the framework and the hot path answered different bytes');
console.log(`headers on both: ${sameHeaders.filter((_, i) => i % 2 === 0).join(', ')}`);
console.log(
  `answer: ${answer.length} bytes; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each`,
);

async function run(port: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bareRates: number[] = [];
const tendedRates: number[] = [];
const frameworkRates: number[] = [];
await run(18731); // warm-up, not counted
await run(18733);
for (let round = 0; round < ROUNDS; round++) {
  bareRates.push(await run(18732));
  tendedRates.push(await run(18731));
  frameworkRates.push(await run(18733));
}
const loadedRss = await rssOf(tended);
tended.kill('SIGINT');
framework.kill();
bare.kill();
rmSync(dir, { recursive: true, force: true });
const ratio = median(tendedRates) / median(bareRates);
console.log(
  `bare node:http, same bytes: ${bareRates.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(bareRates).toFixed(0)})`,
);
console.log(
  `tended entity read with as_of: ${tendedRates.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(tendedRates).toFixed(0)})`,
);
console.log(
  `the same app without the hot path: ${frameworkRates.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(frameworkRates).toFixed(0)}, ratio ${(median(frameworkRates) / median(bareRates)).toFixed(2)})`,
);
console.log(`bench:read ratio tended/bare = ${ratio.toFixed(2)} (target ≥ 0.6, goal 0.75)`);
// Each round's two runs are seconds apart; on a shared machine whose load moves between rounds,
// the ratio within a round is the steadier figure.
const perRound = tendedRates.map((t, i) => t / bareRates[i]!);
console.log(
  `per-round ratios: ${perRound.map((r) => r.toFixed(2)).join(' / ')} (median ${median(perRound).toFixed(2)})`,
);
console.log(`serve RSS: ${idleRss.toFixed(0)} MB idle, ${loadedRss.toFixed(0)} MB after the runs`);
