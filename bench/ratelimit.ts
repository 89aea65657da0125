// bench:ratelimit — what the rate limiter costs an entity read: requests/s of the same app with no
// limiter, with in-process buckets and with Redis buckets, measured in the same run (autocannon,
// interleaved rounds, medians). Targets: in process ≥ 0.9 of no limiter, Redis ≥ 0.7.
import { fork, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { addDays } from '../src/domain/calendar.js';
import type { NewObservation } from '../src/domain/observation.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';

const REPOS = 200;
const DAYS = 60;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `tended-bench:${randomBytes(4).toString('hex')}:`;

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

const path = '/api/v1/entity/org7/repo7?as_of=2025-02-15';
type Mode = 'none' | 'memory' | 'redis';
const PORTS: Record<Mode, number> = { none: 18741, memory: 18742, redis: 18743 };

function start(mode: Mode): Promise<ChildProcess> {
  const child = fork(
    new URL('./ratelimit-server.ts', import.meta.url).pathname,
    [mode, String(PORTS[mode]), dbPath, REDIS_URL, PREFIX],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
}

const servers = { none: await start('none'), memory: await start('memory'), redis: await start('redis') };
const probe = await fetch(`http://127.0.0.1:${PORTS.redis}${path}`);
console.log(
  `answer: ${(await probe.arrayBuffer()).byteLength} bytes, RateLimit: ${probe.headers.get('ratelimit')}; ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each`,
);
// Every connection comes from 127.0.0.1, one client: its requests queued in one event-loop turn are
// one Redis script call, as a flood from one address would be. Distinct clients cost a call each
// (still sent in one write per turn).
console.log('all connections from one client address (one bucket)');

async function run(mode: Mode): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${PORTS[mode]}${path}`,
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${mode}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rates: Record<Mode, number[]> = { none: [], memory: [], redis: [] };
for (const mode of ['none', 'memory', 'redis'] as const) await run(mode); // warm-up, not counted
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ['none', 'memory', 'redis'] as const) rates[mode].push(await run(mode));
}
for (const child of Object.values(servers)) child.kill();
const redis = new Redis(REDIS_URL);
const keys = await redis.keys(`${PREFIX}*`);
if (keys.length > 0) await redis.del(...keys);
redis.disconnect();
rmSync(dir, { recursive: true, force: true });

const line = (label: string, xs: number[]) =>
  console.log(`${label}: ${xs.map((r) => r.toFixed(0)).join(' / ')} req/s (median ${median(xs).toFixed(0)})`);
line('no limiter          ', rates.none);
line('in-process buckets  ', rates.memory);
line('Redis buckets       ', rates.redis);
// Each round runs the three servers back to back, so a round's ratios share the machine's load;
// the medians of those paired ratios are shown beside the ratio of the medians.
const paired = (mode: Mode) => median(rates[mode].map((r, i) => r / rates.none[i]!)).toFixed(2);
console.log(
  `bench:ratelimit ratio in-process/none = ${(median(rates.memory) / median(rates.none)).toFixed(2)} (median of per-round ratios ${paired('memory')}; target ≥ 0.9)`,
);
console.log(
  `bench:ratelimit ratio Redis/none = ${(median(rates.redis) / median(rates.none)).toFixed(2)} (median of per-round ratios ${paired('redis')}; target ≥ 0.7)`,
);
