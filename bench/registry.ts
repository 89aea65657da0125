// bench:registry — the seven followed registries generated at BENCH_SCALE (default 0.1) of their
// real sizes, followed in-process over loopback into a store (SQLite in a temp dir, or PostgreSQL
// at BENCH_DATABASE_URL), read by the observer on a compressed virtual clock: the first backfill,
// then BENCH_DAYS (30) simulated days. Every figure is printed beside its budget; the simulator
// refuses and records any request past a budget, and the run exits 1 if one was.
// BENCH_SPEED: virtual seconds per real second (default 100). BENCH_POLL_MINUTES: virtual minutes
// between two passes of each follower (default 10). TENDED_SWEEP_DAYS: the sweep (default 30).
// BENCH_REGISTRIES: a comma-separated subset of the seven (default all).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { addDays, utcDateOf } from '../src/domain/calendar.js';
import { READ_REASONS } from '../src/domain/follow-schedule.js';
import { FOLLOWED_REGISTRIES, type FollowedRegistry, type Follower } from '../src/upstreams/following/follower.js';
import { createFollower } from '../src/upstreams/followers.js';
import { followPass } from '../src/upstreams/following/follow-pass.js';
import { logNotary } from '../src/operations/deps.js';
import { followStatus, holdBatch } from '../src/operations/follow.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { simulatedBudgets, SIMULATED_HOSTS } from '../src/simulator/budgets.js';
import { startSimulator } from '../src/simulator/server.js';
import type { UpstreamTraffic } from '../src/simulator/traffic.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import type { Store } from '../src/storage/store.js';
import { UpstreamBudgets } from '../src/upstreams/http/budget.js';
import { DEFAULT_BUDGETS, type BudgetedUpstream } from '../src/upstreams/http/budget-limits.js';
import { createSources } from '../src/upstreams/sources.js';
import { compressedLimits, VirtualClock } from './registry-clock.js';
import { extrapolate, type Requests } from './registry-extrapolate.js';
import { checkTruth } from './registry-truth.js';

const SCALE = Number(process.env.BENCH_SCALE ?? 0.1);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const SPEED = Number(process.env.BENCH_SPEED ?? 100);
const POLL_MS = Number(process.env.BENCH_POLL_MINUTES ?? 10) * 60_000;
const SWEEP_DAYS = Number(process.env.TENDED_SWEEP_DAYS ?? 30);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const START = '2026-03-02T00:00:00.000Z';
const DAY_MS = 86_400_000;
/** BENCH_REGISTRIES=npm,pypi follows those only (the extrapolation then covers only them). */
const FOLLOWED: FollowedRegistry[] = process.env.BENCH_REGISTRIES
  ? FOLLOWED_REGISTRIES.filter((r) => process.env.BENCH_REGISTRIES!.split(',').includes(r))
  : [...FOLLOWED_REGISTRIES];
if (FOLLOWED.length === 0) throw new Error(`BENCH_REGISTRIES names none of ${FOLLOWED_REGISTRIES.join(', ')}`);
for (const [name, v] of Object.entries({ BENCH_SCALE: SCALE, BENCH_DAYS: DAYS, BENCH_SPEED: SPEED, POLL_MS }))
  if (!(v > 0)) throw new Error(`${name} must be a positive number`);

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 1e6, 1)} MB`;

// ---- The store --------------------------------------------------------------------------------
async function openStore(): Promise<{ store: Store; size: () => Promise<number>; dispose: () => Promise<void> }> {
  if (!DATABASE_URL) {
    const dir = mkdtempSync(join(tmpdir(), 'tended-bench-registry-'));
    const path = join(dir, 'tended.db');
    const store = await openSqliteStore(path);
    const fileSize = (p: string) => {
      try {
        return statSync(p).size;
      } catch {
        return 0;
      }
    };
    return {
      store,
      size: () => Promise.resolve(fileSize(path) + fileSize(`${path}-wal`)),
      dispose: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // A schema of its own, dropped at the end: the database is left as it was.
  const schema = `bench_registry_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const store = await openPostgresStore(url.toString(), { max: 8 });
  return {
    store,
    size: async () => {
      const r = await admin.query<{ bytes: string | null }>(
        `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(r.rows[0]?.bytes ?? 0);
    },
    dispose: async () => {
      await store.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.end();
    },
  };
}

// ---- The world: simulator, store, budgets, followers, observer -------------------------------
const clock = new VirtualClock(START, SPEED);
const limits = compressedLimits(DEFAULT_BUDGETS, SPEED);
const simulator = await startSimulator({
  scenario: { components: {} },
  clock: () => clock.now(),
  registries: { seed: 26, scale: SCALE, start: START, registries: FOLLOWED },
  budgets: simulatedBudgets(limits),
});
const { store, size: storeSize, dispose } = await openStore();
const budgets = new UpstreamBudgets(limits, { now: () => clock.nowMs() });
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const deps: ObserverDeps = {
  store,
  notary: logNotary('bench.tended.local/log', privateKey, publicKey),
  clock: { now: () => clock.now() },
  sources: createSources({
    urls: simulator.urls,
    githubToken: 'bench-token',
    userAgent: 'tended-bench/0.1.0 (+simulator)',
    timeoutMs: 60_000,
    concurrency: 16,
    cache: { get: (url) => store.cacheGet(url), set: (url, entry) => store.cacheSet(url, entry) },
    budgets,
    now: () => clock.nowMs(),
  }),
};
await store.initialiseLog(deps.notary.seal);
const registries = new Map(FOLLOWED.map((r) => [r, simulator.registries!.get(r)!] as const));
const followers = new Map<FollowedRegistry, Follower>(
  FOLLOWED.map((r) => [
    r,
    createFollower(r, {
      urls: simulator.feeds,
      osvExport: simulator.urls.osvExport,
      userAgent: 'tended-bench/0.1.0 (+simulator)',
      timeoutMs: 120_000,
      clock: () => clock.now(),
      now: () => clock.nowMs(),
      budgets,
    }),
  ]),
);
// A claim's lease is on the virtual clock: six virtual hours outlast any batch.
const PASS = { batch: 200, concurrency: 16, leaseMs: 6 * 3_600_000, sweepDays: SWEEP_DAYS };

console.log(
  `bench:registry — scale ${SCALE} of the real sizes, ${DAYS} simulated days, ${DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, ` +
    `virtual clock × ${SPEED}, each follower polled every ${POLL_MS / 60_000} virtual minutes, sweep ${SWEEP_DAYS} days`,
);
console.log(
  `machine: load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on 2 cores shared with other work (wall times are under that load)`,
);
for (const [r, reg] of registries)
  console.log(
    `  ${r.padEnd(8)} ${fmt(reg.initialPackages).padStart(9)} packages, ${fmt(reg.changing)} changing a round`,
  );
console.log(
  `budgets: tended and the simulator both hold each host to perSecond × ${SPEED} a real second (= perSecond a ` +
    `virtual second) and perDay a virtual day; peaks below are converted back to virtual seconds`,
);

// ---- The followers' polls ---------------------------------------------------------------------
const nextPoll = new Map<FollowedRegistry, number>(FOLLOWED.map((r) => [r, 0]));
const inFlight = new Map<FollowedRegistry, Promise<void>>();
const errors: string[] = [];
const lagSeen = new Map<FollowedRegistry, number>();

function poll(registry: FollowedRegistry): Promise<void> {
  const running = inFlight.get(registry);
  if (running) return running;
  if (clock.nowMs() < nextPoll.get(registry)!) return Promise.resolve();
  nextPoll.set(registry, clock.nowMs() + POLL_MS);
  const pass = (async () => {
    try {
      const summary = await followPass(
        followers.get(registry)!,
        store,
        (batch) => holdBatch(store, batch, clock.now()).then(() => undefined),
        () => clock.now(),
      );
      for (const f of summary.faults) errors.push(`${registry}: ${f.kind}: ${f.detail}`);
    } catch (error) {
      errors.push(`${registry}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      inFlight.delete(registry);
    }
  })();
  inFlight.set(registry, pass);
  return pass;
}

/** The followers' lag as it stands before a poll (the most the record can be behind its feed). */
async function sampleLag(): Promise<void> {
  for (const s of await followStatus(store, FOLLOWED, deps.clock))
    if (s.lag_seconds !== null) lagSeen.set(s.registry, Math.max(lagSeen.get(s.registry) ?? 0, s.lag_seconds));
}

/** Polls while an observer pass runs, as `serve` would: the feeds are not left waiting on the reads. */
function pollInBackground(): () => void {
  const timer = setInterval(() => {
    for (const r of FOLLOWED) void poll(r);
  }, 20);
  return () => clearInterval(timer);
}

/** Polls and observes until `untilMs`, jumping the clock over the idle stretches. */
async function runUntil(untilMs: number, stopEarly?: () => Promise<boolean>): Promise<void> {
  while (clock.nowMs() < untilMs) {
    await sampleLag();
    await Promise.all(FOLLOWED.map(poll));
    const stop = pollInBackground();
    try {
      await observeDue(deps, PASS);
    } finally {
      stop();
    }
    await Promise.all([...inFlight.values()]);
    // The request log is not needed here: the traffic counts are.
    simulator.requests.length = 0;
    if (stopEarly && (await stopEarly())) return;
    clock.jumpTo(Math.min(untilMs, ...nextPoll.values()));
  }
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const traffic = () => simulator.traffic.summary();
// ---- The first backfill -----------------------------------------------------------------------
let wall = performance.now();
let cpu = cpuNow();
const figures = async () => {
  const all = await Promise.all(FOLLOWED.map((r) => store.followFigures(r, utcDateOf(clock.now()))));
  return { listed: all.reduce((a, f) => a + f.listed, 0), readOnce: all.reduce((a, f) => a + f.read_once, 0) };
};
await runUntil(Date.parse(START) + 30 * DAY_MS, async () => {
  const f = await figures();
  return f.listed > 0 && f.readOnce >= f.listed;
});
/** Requests each host's budget granted so far: the feeds' (top priority, `interactive`) apart from the reads'. */
const granted = async () =>
  Object.fromEntries(
    (await budgets.use()).map((u) => [
      u.upstream,
      { feed: u.sent.interactive, reads: Object.values(u.sent).reduce((a, n) => a + n, 0) - u.sent.interactive },
    ]),
  ) as Record<BudgetedUpstream, Requests>;
const backfill = {
  granted: await granted(),
  wallSeconds: (performance.now() - wall) / 1000,
  cpuSeconds: cpuNow() - cpu,
  virtualHours: (clock.nowMs() - Date.parse(START)) / 3_600_000,
  traffic: traffic(),
  bytes: await storeSize(),
  figures: await figures(),
};
console.log('\n== the first backfill ==');
console.log(
  `held ${fmt(backfill.figures.listed)} packages, ${fmt(backfill.figures.readOnce)} read at least once; ` +
    `wall ${fmt(backfill.wallSeconds, 1)} s, CPU ${fmt(backfill.cpuSeconds, 1)} s ` +
    `(${fmt(backfill.figures.readOnce / backfill.wallSeconds)} reads/s), ${fmt(backfill.virtualHours, 2)} virtual hours`,
);
console.log(
  `store ${mb(backfill.bytes)} (${fmt(backfill.bytes / Math.max(1, backfill.figures.readOnce))} bytes a package)`,
);
printTraffic(backfill.traffic);

function printTraffic(t: Record<string, UpstreamTraffic>): void {
  const hostOf = Object.fromEntries(Object.entries(SIMULATED_HOSTS).map(([u, p]) => [p, u])) as Record<
    string,
    BudgetedUpstream
  >;
  console.log('host            requests   peak/s (virtual)   budget/s   most in a day   budget/day   refused');
  for (const [prefix, v] of Object.entries(t).sort()) {
    const upstream = hostOf[prefix];
    const limit = upstream ? DEFAULT_BUDGETS[upstream] : null;
    const day = Math.max(0, ...Object.values(v.perDay));
    console.log(
      `${(upstream ?? prefix).padEnd(15)} ${fmt(v.requests).padStart(8)}   ${fmt(v.peakPerSecond / SPEED, 2).padStart(16)}   ${String(limit?.perSecond ?? '-').padStart(8)}   ${fmt(day).padStart(13)}   ${fmt(limit?.perDay ?? 0).padStart(10)}   ${v.refused}`,
    );
  }
}

// ---- The simulated days -----------------------------------------------------------------------
// The rest of the backfill's day runs unreported; day 1 is the next UTC day.
const firstDay = addDays(utcDateOf(clock.now()), 1);
await runUntil(Date.parse(`${firstDay}T00:00:00Z`));
console.log(`\n== ${DAYS} simulated days from ${firstDay} ==`);
console.log('day          event  threshold   sweep  backfill   wall s   CPU s   store +MB   lag max (s, by registry)');
let dayCpuTotal = 0;
let growthTotal = 0;
let readsTotal = 0;
const beforeDays = await granted();
for (let d = 0; d < DAYS; d++) {
  const day = addDays(firstDay, d);
  lagSeen.clear();
  wall = performance.now();
  cpu = cpuNow();
  const bytes = await storeSize();
  await runUntil(Date.parse(`${addDays(day, 1)}T00:00:00Z`));
  const dayCpu = cpuNow() - cpu;
  const growth = (await storeSize()) - bytes;
  const reads = await store.followReads(day, day);
  const by = Object.fromEntries(
    READ_REASONS.map((reason) => [reason, reads.filter((r) => r.reason === reason).reduce((a, r) => a + r.reads, 0)]),
  );
  dayCpuTotal += dayCpu;
  growthTotal += growth;
  readsTotal += Object.values(by).reduce((a, n) => a + n, 0);
  const lag = FOLLOWED.map((r) => `${r} ${fmt(lagSeen.get(r) ?? 0)}`).join(', ');
  console.log(
    `${day}  ${fmt(by.event!).padStart(6)}  ${fmt(by.threshold!).padStart(9)}  ${fmt(by.sweep!).padStart(6)}  ${fmt(by.backfill!).padStart(8)}   ${fmt((performance.now() - wall) / 1000, 1).padStart(6)}  ${fmt(dayCpu, 1).padStart(6)}   ${fmt(growth / 1e6, 2).padStart(9)}   ${lag}`,
  );
}
const afterDays = traffic();
const beforeGranted = beforeDays;
const afterGranted = await granted();
const dailyRequests = Object.fromEntries(
  Object.entries(afterGranted).map(([u, n]) => [
    u,
    {
      feed: (n.feed - beforeGranted[u as BudgetedUpstream].feed) / DAYS,
      reads: (n.reads - beforeGranted[u as BudgetedUpstream].reads) / DAYS,
    },
  ]),
);
console.log(
  `a day on average: ${fmt(readsTotal / DAYS)} reads (${fmt((100 * readsTotal) / DAYS / backfill.figures.listed, 2)} % of held), ` +
    `CPU ${fmt(dayCpuTotal / DAYS, 1)} s, store +${mb(growthTotal / DAYS)}; all runs' requests:`,
);
printTraffic(afterDays);

// ---- The truth ----------------------------------------------------------------------------------
const lastDay = addDays(firstDay, DAYS - 1);
const truth = await checkTruth(store, registries, {
  firstDay,
  lastDay,
  pollMs: POLL_MS,
});
const pct = (a: number, b: number) => (b === 0 ? '-' : `${fmt((100 * a) / b, 2)} %`);
console.log(`\n== state changes ${firstDay} … ${lastDay}, against the seed's facts ==`);
console.log(
  `changes the record shows: ${fmt(truth.changes)}, of which ${fmt(truth.beforeWindow)} happened on the backfill's day after ` +
    `its read (one observation a day: read on the first day) and are left out below`,
);
const driven = (name: string, t: typeof truth.publishDriven) => {
  console.log(
    `${name} dated on their own day: ${fmt(t.ownDay)} of ${fmt(t.total)} (${pct(t.ownDay, t.total)}; goal 100 %); ` +
      `the next day because the package had been read that day before the change (one observation a day): ${fmt(t.readEarlierThatDay)}; ` +
      `the next day because it came after the day's last poll: ${fmt(t.afterLastPoll)}; ` +
      `later: ${fmt(t.total - t.ownDay - t.readEarlierThatDay - t.afterLastPoll)}`,
  );
  for (const l of t.examples) console.log(`  read earlier that day: ${l}`);
  for (const l of t.late) console.log(`  late: ${l}`);
};
driven('publish-driven', truth.publishDriven);
driven('age-driven', truth.ageDriven);
console.log(
  `other changes (deprecation, deletion): ${fmt(truth.other.total)}, the longest ${truth.other.longestDays} days after it happened (≤ ${SWEEP_DAYS})${truth.other.worst ? `: ${truth.other.worst}` : ''}`,
);
const ev = truth.events;
console.log(
  `changes the feeds reported: ${fmt(ev.total)}; read on their day after the change ${fmt(ev.readThatDay)} (${pct(ev.readThatDay, ev.total)}); ` +
    `read earlier that day, before the change ${fmt(ev.readBeforeItThatDay)} (of which read the next day ${fmt(ev.readNextDay)}, on a day after the run ${fmt(ev.nextDayOutsideRun)}); ` +
    `after the day's last poll ${fmt(ev.afterLastPoll)}; deprecations and deletions left to the sweep ${fmt(ev.leftToSweep)}; ` +
    `publications missed on their day ${fmt(ev.missed)}`,
);
for (const l of ev.examples) console.log(`  missed: ${l}`);
console.log(`changes the seed cannot explain (false states): ${truth.unexplained.length}`);
for (const l of truth.unexplained.slice(0, 10)) console.log(`  ${l}`);

// ---- At full size -----------------------------------------------------------------------------
console.log('\n== extrapolated to full size (sizes.ts), a year ==');
for (const line of extrapolate({
  scale: SCALE,
  days: DAYS,
  backfillRequests: backfill.granted,
  dailyRequests,
  pollMinutes: POLL_MS / 60_000,
  registries: FOLLOWED,
  readsPerDay: readsTotal / DAYS,
  held: backfill.figures.listed,
  backfillReads: backfill.figures.readOnce,
  backfillCpuSeconds: backfill.cpuSeconds,
  cpuSecondsPerDay: dayCpuTotal / DAYS,
  storeBytesAfterBackfill: backfill.bytes,
  storeGrowthPerDay: growthTotal / DAYS,
}))
  console.log(line);

// ---- Verdict -----------------------------------------------------------------------------------
const violations = simulator.traffic.violations;
console.log(`\nfollowers' faults and errors: ${errors.length}`);
for (const e of errors.slice(0, 10)) console.log(`  ${e}`);
console.log(`budget violations recorded by the simulator: ${violations.length}`);
for (const v of violations.slice(0, 20)) console.log(`  ${JSON.stringify(v)}`);
await budgets.close();
await simulator.close();
await dispose();
const failed = violations.length > 0 || truth.unexplained.length > 0;
if (failed) console.log('FAILED: a request went over its budget, or the record shows a state the seed cannot explain');
process.exit(failed ? 1 : 0);
