import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generatedScenario } from '../src/simulator/generated-scenario.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { postgresTestStore, type TestStore } from './support/record.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/** DESIGN §8: several `observe` workers on one PostgreSQL share the watch list. */
const scenario = generatedScenario(60, 11);
const KEY = join(tmpdir(), `tended-workers-${process.pid}.pem`);

let t: TestStore;
let simulator: Simulator;

beforeAll(async () => {
  t = await postgresTestStore();
  simulator = await startSimulator({ scenario });
});
afterAll(async () => {
  await simulator.close();
  await t.dispose();
  rmSync(KEY, { force: true });
});

function observeOnce(): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'observe', '--once'], {
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        TENDED_SIGNING_KEY: KEY,
        ...upstreamEnv(simulator.urls),
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

it('gives each due component to one of three racing workers: observed exactly once on the date', async () => {
  const components = scenarioComponents(scenario);
  await t.store.watchAdd(components, new Date().toISOString());
  const runs = await Promise.all([observeOnce(), observeOnce(), observeOnce()]);
  for (const run of runs) expect(run.code, run.err).toBe(0);
  for (const ref of components) expect(await t.store.observationsOf(ref)).toHaveLength(1);
  // Renamed repositories put their new names on the watch list, due at once; a worker may have
  // finished before they fell due, but none is observed twice either.
  const watched = (await t.store.watchList()).map((w) => w.component);
  const counts = await Promise.all(watched.map(async (ref) => (await t.store.observationsOf(ref)).length));
  expect(counts.every((n) => n <= 1)).toBe(true);
  const observedBy = runs.map((r) => Number(/^observed (\d+)/m.exec(r.out)?.[1]));
  expect(observedBy.reduce((a, b) => a + b, 0)).toBe(await t.store.treeSize());
  expect(await t.store.treeSize()).toBe(counts.reduce((a, b) => a + b, 0));
}, 120_000);
