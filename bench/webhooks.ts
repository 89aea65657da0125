/**
 * Webhooks benchmark (issue 38): what subscriptions cost the append, and how fast the outbox drains.
 *
 *   npm run bench:webhooks     (BENCH_COMPONENTS, BENCH_DAYS, BENCH_SUBSCRIPTIONS, BENCH_BATCH;
 *                               DATABASE_URL=postgres://… to run on PostgreSQL instead of SQLite)
 *
 * Two stores get the same appends: BENCH_COMPONENTS GitHub repositories read once a day for
 * BENCH_DAYS days, in batches of BENCH_BATCH as the observer appends them, a tenth of them changing
 * state each day. One store has no subscription; the other BENCH_SUBSCRIPTIONS of them (each naming
 * 100 components, an owner, or a state), so its appends also match changes and write the outbox in
 * the same transaction. The days alternate between the stores, so load on the machine falls on both.
 * Then the second store's outbox is sent to a receiver on loopback (answering 204) by the real
 * sender, and deliveries per second are printed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NewObservation } from '../src/domain/observation.js';
import type { State } from '../src/domain/state.js';
import { filterTargets, parseSubscriptionFilter } from '../src/domain/subscription.js';
import { logNotary } from '../src/operations/deps.js';
import { DELIVERY_DEFAULTS, deliverDue } from '../src/operations/webhook-delivery.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import type { Store } from '../src/storage/store.js';

const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 5_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 6);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const POSTGRES = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : null;

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const notary = logNotary('bench.tended.local/log', privateKey, publicKey);
const dir = mkdtempSync(join(tmpdir(), 'tended-bench-webhooks-'));

async function openStore(name: string): Promise<Store> {
  if (!POSTGRES) return openSqliteStore(join(dir, `${name}.db`));
  const url = new URL(POSTGRES);
  const schema = `bench_webhooks_${name}_${process.pid}`;
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: POSTGRES });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  await client.end();
  url.searchParams.set('options', `-c search_path=${schema}`);
  return openPostgresStore(url.toString(), { max: 4 });
}

const repo = (i: number) => `org${i % 50}/repo${i}`;
const STATES: State[] = ['alive', 'dormant', 'archived'];
/** Day d's state of component i: a tenth of the components move each day. */
const stateOn = (i: number, d: number) => STATES[(Math.floor(i / 10) % 10 === d % 10 ? d : 0) % 3]!;

function observation(i: number, d: number): NewObservation {
  const date = new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
  return {
    component: { kind: 'github', id: repo(i) },
    observed_at: `${date}T06:00:00Z`,
    observation_date: date,
    state: stateOn(i, d),
    source: `https://api.github.com/repos/${repo(i)}`,
    evidence: { http_status: 200, archived: stateOn(i, d) === 'archived' },
    method: 'github: default-branch head commit date and archived flag',
    corrects: null,
  };
}

/** `matching`: subscriptions the changes match; otherwise as many naming packages never read (matching only, nothing written). */
async function subscribe(store: Store, matching: boolean): Promise<void> {
  for (let s = 0; s < SUBSCRIPTIONS; s++) {
    const body = !matching
      ? { components: Array.from({ length: 100 }, (_, k) => `npm/idle-${s}-${k}`) }
      : s % 10 === 0
        ? { owners: [`github/org${s % 50}`] }
        : s % 10 === 1
          ? { states: ['archived'] }
          : { components: Array.from({ length: 100 }, (_, k) => `github/${repo((s * 37 + k * 101) % COMPONENTS)}`) };
    const filter = parseSubscriptionFilter(body);
    await store.subscriptionCreate(
      {
        id: `sub_bench${String(s).padStart(11, '0')}`,
        key_id: `k_${s % 40}`,
        endpoint: hook,
        secret: 'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2hiZW5jaGJlbmNoYg==',
        filter,
        targets: filterTargets(filter),
        created_at: new Date().toISOString(),
      },
      1_000,
    );
  }
}

/** Appends day d to `store` in batches; returns the seconds it took. */
async function appendDay(store: Store, d: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < COMPONENTS; i += BATCH)
    await store.appendObservations(
      Array.from({ length: Math.min(BATCH, COMPONENTS - i) }, (_, k) => observation(i + k, d)),
      notary.seal,
    );
  return (performance.now() - started) / 1000;
}

// The receiver on loopback every subscription names (answering 204), started first.
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const plain = await openStore('plain');
const idle = await openStore('idle');
const subscribed = await openStore('subscribed');
const stores = { plain, idle, subscribed };
for (const store of Object.values(stores)) await store.initialiseLog(notary.seal);
await subscribe(idle, false);
await subscribe(subscribed, true);
const seconds = { plain: 0, idle: 0, subscribed: 0 };
const names = ['plain', 'idle', 'subscribed'] as const;
for (let d = 0; d < DAYS; d++) {
  // Rotating which store goes first each day, so the machine's load falls on each alike.
  const order = names.map((_, k) => names[(k + d) % names.length]!);
  for (const which of order) {
    const took = await appendDay(stores[which], d);
    // Day 0 is every component's first reading (no change): a warm-up, not counted.
    if (d > 0) seconds[which] += took;
  }
}
const appended = COMPONENTS * (DAYS - 1);
const rate = (s: number) => appended / s;

// --- Deliveries: the subscribed store's outbox, drained by the real sender ---------------------
const started = performance.now();
const report = await deliverDue(
  { store: subscribed, notary, clock: { now: () => new Date() }, publicUrl: 'http://127.0.0.1:8080' },
  { ...DELIVERY_DEFAULTS, allowPrivate: true },
);
const drainSeconds = (performance.now() - started) / 1000;
receiver.close();

const f = (n: number) => Math.round(n).toLocaleString('en');
console.log(
  `webhooks bench on ${POSTGRES ? 'PostgreSQL' : 'SQLite'}: ${f(COMPONENTS)} components × ${DAYS - 1} days (batches of ${BATCH}), ${f(SUBSCRIPTIONS)} subscriptions`,
);
console.log(`append without subscriptions: ${f(rate(seconds.plain))} observations/s (${seconds.plain.toFixed(2)} s)`);
console.log(
  `append with ${f(SUBSCRIPTIONS)} subscriptions: ${f(rate(seconds.subscribed))} observations/s (${seconds.subscribed.toFixed(2)} s)`,
);
console.log(
  `append with ${f(SUBSCRIPTIONS)} subscriptions matching nothing: ${f(rate(seconds.idle))} observations/s (${seconds.idle.toFixed(2)} s)`,
);
console.log(
  `append rate ratio (with / without): ${(rate(seconds.subscribed) / rate(seconds.plain)).toFixed(3)} (matching and writing ${f(report.delivered)} deliveries); matching alone ${(rate(seconds.idle) / rate(seconds.plain)).toFixed(3)}`,
);
console.log(
  `deliveries: ${f(report.delivered)} sent (${f(received)} received, ${report.failed} failed) in ${drainSeconds.toFixed(2)} s = ${f(report.delivered / drainSeconds)} deliveries/s (concurrency ${DELIVERY_DEFAULTS.concurrency})`,
);
console.log(
  `deliveries per appended observation: ${(report.delivered / appended).toFixed(2)}; delivery rate / append rate with subscriptions: ${(report.delivered / drainSeconds / rate(seconds.subscribed)).toFixed(3)}`,
);
for (const store of Object.values(stores)) await store.close();
if (POSTGRES) {
  // The bench's schemas go with it.
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: POSTGRES });
  await client.connect();
  for (const name of names) await client.query(`DROP SCHEMA IF EXISTS bench_webhooks_${name}_${process.pid} CASCADE`);
  await client.end();
}
rmSync(dir, { recursive: true, force: true });
