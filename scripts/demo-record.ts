// The record `npm run demo` serves, built as an operator would: `tended watch add`, then
// `tended observe --once` on several dates (each pass's clock set by the test clock preload, the
// only way to read on another date: Tended has no option for it), then a census of today. Its own
// file so the demo test builds exactly the record the demo shows.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { demoScenario } from '../src/simulator/demo.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator, type Simulator } from '../src/simulator/server.js';
import { clockedNode } from '../test/support/clock.js';

/** The past dates the demo observes on; today is the last pass. */
export const DEMO_DATES = [
  '2025-01-15',
  '2025-04-15',
  '2025-07-15',
  '2025-10-15',
  '2026-01-15',
  '2026-04-15',
  '2026-07-15',
];

export interface DemoRecord {
  simulator: Simulator;
  /** The environment of `tended` commands on this record (store, upstreams, observer off). */
  env: Record<string, string | undefined>;
  /** Points the simulator at the real clock again, for the service that serves the record. */
  live(): void;
}

/**
 * Builds the demo record in `dir` with `main` (dist/main.js, or src/main.ts under tsx), printing
 * each command's output through `log`. The simulator answers each pass as of the moment that
 * pass's clock starts at, so no answer carries activity after the observation that reads it.
 */
export async function buildDemoRecord(
  dir: string,
  main: string,
  log: (line: string) => void,
  nodeArgs: string[] = [],
): Promise<DemoRecord> {
  const scenario = demoScenario();
  let moment: (() => Date) | null = null;
  const simulator = await startSimulator({ scenario, clock: () => (moment ? moment() : new Date()) });
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
    TENDED_OBSERVER: 'off',
    ...upstreamEnv(simulator.urls),
  };
  const today = new Date().toISOString().slice(0, 10);
  // Asynchronous, so the simulator in this process keeps answering while the observer reads it.
  // A past pass's process starts at `date time`; the simulator stands still at that instant, so
  // its answers are never later than the clock of the process reading them (which runs on).
  const tended = (date: string | null, time: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const clock = date === null ? null : clockedNode(`${date} ${time}`);
      const at = date === null ? null : new Date(`${date}T${time}Z`);
      moment = at === null ? null : () => at;
      const child = spawn(process.execPath, [...(clock?.args ?? nodeArgs), main, ...args], {
        env: { ...env, ...clock?.env },
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d: Buffer) => log(d.toString().trimEnd()));
      child.on('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`tended ${args.join(' ')} exited with ${code}`)),
      );
    });

  const pairs = scenarioComponents(scenario).flatMap((r) => [r.kind, r.id]);
  log((await tended(DEMO_DATES[0]!, '06:00:00', ['watch', 'add', ...pairs])).trimEnd());
  for (const date of DEMO_DATES) log(`${date}: ${(await tended(date, '08:00:00', ['observe', '--once'])).trimEnd()}`);
  // Today's pass runs on the real clock, and so does the simulator.
  log(`${today}: ${(await tended(null, '', ['observe', '--once'])).trimEnd()}`);
  // Pages need a census of dependents (TENDED_PAGE_MIN_DEPENDENTS): read today's.
  log(`census: ${(await tended(null, '', ['census'])).trimEnd()}`);
  return { simulator, env, live: () => (moment = null) };
}
