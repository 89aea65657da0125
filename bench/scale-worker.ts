// A worker process for bench/scale.ts: appends generated GitHub observations through the store's
// real append path (one transaction per batch: rows, leaves, tree nodes and a signed head).
//   argv: DATABASE_URL KEY_PATH ORIGIN PREFIX DATE_FROM DAYS COMPONENTS BATCH WORKER WORKERS
// Component c of PREFIX is read on each of DAYS dates from DATE_FROM; batches are (date, chunk of
// BATCH components), and worker w of W takes every W-th batch. Prints one JSON line at the end:
// what it appended and the seconds from its first append to its last (process start not counted),
// in all and split into the first day's (new components) and the later days' (known ones).
import { readFileSync } from 'node:fs';
import { addDays } from '../src/domain/calendar.js';
import type { NewObservation } from '../src/domain/observation.js';
import type { State } from '../src/domain/state.js';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { logNotary } from '../src/operations/deps.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';

const [url, keyPath, origin, prefix, dateFrom, days, components, batch, worker, workers] = process.argv.slice(2);
const DAYS = Number(days);
const COMPONENTS = Number(components);
const BATCH = Number(batch);
const W = Number(workers);
const w = Number(worker);

const key = loadOrCreateSigningKey(keyPath!);
const notary = logNotary(origin!, key.privateKey, key.publicKey);
const store = await openPostgresStore(url!, { max: 2 });
await store.initialiseLog(notary.seal);

const STATES: State[] = ['alive', 'alive', 'alive', 'dormant', 'abandoned', 'archived', 'not_observed'];
function observation(c: number, date: string, day: number): NewObservation {
  const repo = `${prefix}${c % 1000}/repo${c}`;
  // A component keeps its state for weeks, then may change: the series has real mutations in it.
  const state = STATES[(c * 7 + Math.floor((day + (c % 13)) / 21)) % STATES.length]!;
  return {
    component: { kind: 'github', id: repo },
    observed_at: `${date}T${String(c % 24).padStart(2, '0')}:00:00Z`,
    observation_date: date,
    state,
    source: `https://api.github.com/repos/${repo}`,
    evidence:
      state === 'not_observed'
        ? { http_status: 429, error: 'rate limited' }
        : { http_status: 200, last_commit: `${addDays(date, -(c % 400))}T00:00:00Z`, archived: state === 'archived' },
    method: 'github: default-branch head commit date and archived flag',
    corrects: null,
  };
}

const chunks = Math.ceil(COMPONENTS / BATCH);
// Batches an interrupted fill already appended (each batch is one transaction: all of it or none).
const done = new Set<number>(
  process.env.BENCH_DONE_BATCHES ? (JSON.parse(readFileSync(process.env.BENCH_DONE_BATCHES, 'utf8')) as number[]) : [],
);
let appended = 0;
// The first day registers its components; later days re-read known ones (a daily pass): timed apart.
const byDay = { first: { appended: 0, seconds: 0 }, later: { appended: 0, seconds: 0 } };
const started = performance.now();
for (let b = w; b < DAYS * chunks; b += W) {
  if (done.has(b)) continue;
  const day = Math.floor(b / chunks);
  const date = addDays(dateFrom!, day);
  const batchStarted = performance.now();
  const list: NewObservation[] = [];
  for (let c = (b % chunks) * BATCH; c < Math.min(COMPONENTS, ((b % chunks) + 1) * BATCH); c++)
    list.push(observation(c, date, day));
  await store.appendObservations(list, notary.seal);
  appended += list.length;
  const part = day === 0 ? byDay.first : byDay.later;
  part.appended += list.length;
  part.seconds += (performance.now() - batchStarted) / 1000;
  if (process.env.BENCH_PROGRESS && b % (W * 20) === w) {
    process.stderr.write(
      `worker ${w}: ${appended} appended, ${(appended / ((performance.now() - started) / 1000)).toFixed(0)}/s\n`,
    );
  }
}
const seconds = (performance.now() - started) / 1000;
await store.close();
console.log(JSON.stringify({ worker: w, appended, seconds, ...byDay }));
