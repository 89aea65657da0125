// bench:observe — 10,000 components observed against the simulator on loopback: observations/s,
// as a ratio to a baseline measured in the same run (the same HTTP requests made with bare fetch,
// at the same concurrency, with nothing parsed or recorded), and the share of requests answered 304
// on the next day's pass. BENCH_KINDS=first (GitHub, npm, PyPI, images: the default) or more (Maven,
// Go, crates.io, NuGet, RubyGems, Packagist, distribution releases).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logNotary } from '../src/operations/deps.js';
import { observeDue, type ObserverDeps } from '../src/operations/observe.js';
import { generatedScenario } from '../src/simulator/generated-scenario.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { startSimulator } from '../src/simulator/server.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { createSources } from '../src/upstreams/sources.js';
import { moreKindsScenario } from './more-kinds-scenario.js';

const N = Number(process.env.BENCH_COMPONENTS ?? 10_000);
const CONCURRENCY = 16;
const day = { first: '2026-06-01T06:00:00Z', second: '2026-06-02T06:00:00Z' };

const KINDS = process.env.BENCH_KINDS ?? 'first';
if (KINDS !== 'first' && KINDS !== 'more') throw new Error('BENCH_KINDS is first or more');
const scenario = KINDS === 'more' ? moreKindsScenario(N, 1) : generatedScenario(N, 1);
console.log(
  `kinds: ${KINDS === 'more' ? 'maven, golang, cargo, nuget, gem, composer, distro' : 'github, npm, pypi, docker'}`,
);
const simulator = await startSimulator({ scenario, clock: () => new Date('2026-06-01T12:00:00Z') });
const dir = mkdtempSync(join(tmpdir(), 'tended-bench-observe-'));
const store = await openSqliteStore(join(dir, 'tended.db'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
let now = new Date(day.first);
const deps: ObserverDeps = {
  store,
  notary: logNotary('bench/log', privateKey, publicKey),
  clock: { now: () => now },
  sources: createSources({
    urls: simulator.urls,
    githubToken: 'bench-token',
    userAgent: 'tended-bench',
    timeoutMs: 10_000,
    concurrency: CONCURRENCY,
    cache: { get: (url) => store.cacheGet(url), set: (url, entry) => store.cacheSet(url, entry) },
  }),
};
await store.initialiseLog(deps.notary.seal);
await store.watchAdd(scenarioComponents(scenario), day.first);
const pass = { batch: 200, concurrency: CONCURRENCY, leaseMs: 600_000 };

let t = performance.now();
const first = await observeDue(deps, pass);
const observeSeconds = (performance.now() - t) / 1000;
const firstRequests = simulator.requests.splice(0);

// Baseline: the very requests the first pass made, replayed with bare fetch, bodies read, nothing else.
t = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < firstRequests.length) {
      const r = firstRequests[next++]!;
      const response = await fetch(`${simulator.url}${r.path}`, {
        redirect: 'manual',
        headers: { authorization: 'Bearer bench-token' },
      });
      await response.arrayBuffer();
    }
  }),
);
const fetchSeconds = (performance.now() - t) / 1000;
simulator.requests.splice(0);

now = new Date(day.second);
t = performance.now();
const second = await observeDue(deps, pass);
const secondSeconds = (performance.now() - t) / 1000;
const secondRequests = simulator.requests.splice(0);
const notModified = secondRequests.filter((r) => r.status === 304).length;

await simulator.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

console.log(
  `first pass: ${first.observed} observations (${first.failed} failed) from ${firstRequests.length} requests in ${observeSeconds.toFixed(2)} s = ${(first.observed / observeSeconds).toFixed(0)} observations/s`,
);
console.log(`baseline: the same ${firstRequests.length} requests with bare fetch in ${fetchSeconds.toFixed(2)} s`);
console.log(`bench:observe ratio observe/bare-fetch time = ${(observeSeconds / fetchSeconds).toFixed(2)}`);
console.log(
  `second pass (next day): ${second.observed} observations in ${secondSeconds.toFixed(2)} s = ${(second.observed / secondSeconds).toFixed(0)} observations/s; ${notModified} of ${secondRequests.length} requests answered 304 (${((100 * notModified) / Math.max(1, secondRequests.length)).toFixed(1)} %)`,
);
