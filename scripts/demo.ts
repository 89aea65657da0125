// npm run demo — a living record in a minute: the simulator answers like the real upstreams, the
// observer reads it on several dates (with the test clock preload, the only way to read on another
// date: Tended has no option for it), the census reads the packages' dependents so they have pages,
// and the service serves the result on http://127.0.0.1:8080.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoScenario } from '../src/simulator/demo.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { startSimulator } from '../src/simulator/server.js';
import { clockedNode } from '../test/support/clock.js';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
const PORT = process.env.PORT ?? '8080';
const scenario = demoScenario();
let simulated = new Date();
const simulator = await startSimulator({ scenario, clock: () => simulated });
const dir = mkdtempSync(join(tmpdir(), 'tended-demo-'));
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
  TENDED_OBSERVER: 'off',
  ...upstreamEnv(simulator.urls),
};
const today = new Date().toISOString().slice(0, 10);
const dates = ['2025-01-15', '2025-04-15', '2025-07-15', '2025-10-15', '2026-01-15', '2026-04-15', '2026-07-15', today];
// Asynchronous, so the simulator in this process keeps answering while the observer reads it.
const tended = (date: string, time: string, args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const clock = date === today ? null : clockedNode(`${date} ${time}`);
    const child = spawn(process.execPath, [...(clock?.args ?? []), MAIN, ...args], {
      env: { ...env, ...clock?.env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`tended ${args.join(' ')} exited with ${code}`)),
    );
  });

console.log(`demo record in ${dir}; simulated upstreams on ${simulator.url}`);
const pairs = scenarioComponents(scenario).flatMap((r) => [r.kind, r.id]);
process.stdout.write(await tended(dates[0]!, '06:00:00', ['watch', 'add', ...pairs]));
for (const date of dates) {
  simulated = new Date(`${date}T12:00:00Z`);
  process.stdout.write(`${date}: ${await tended(date, '08:00:00', ['observe', '--once'])}`);
}
// Pages need a census of dependents (TENDED_PAGE_MIN_DEPENDENTS): read today's.
process.stdout.write(`census: ${await tended(today, '09:00:00', ['census'])}`);
simulated = new Date();
const server = spawn(process.execPath, [MAIN, 'serve'], { env: { ...env, PORT }, stdio: 'inherit' });
console.log(`
Try:
  curl -s http://127.0.0.1:${PORT}/api/v1/entity/acme/rocket | jq '{state, observation_date, censoring_status, mutations}'
  curl -s 'http://127.0.0.1:${PORT}/api/v1/entity/acme/vanishing?as_of=2025-08-01' | jq '{state, observation_date, censoring_status}'
  curl -s http://127.0.0.1:${PORT}/api/v1/org/acme | jq '.components[] | {purl: .purl[0], state}'
  curl -s http://127.0.0.1:${PORT}/api/chain/head | jq
  open http://127.0.0.1:${PORT}/npm/left-padded   (a package page: "is left-padded still maintained?")
  DATABASE_URL=sqlite:${join(dir, 'tended.db')} npm run tended -- verify
Ctrl-C to stop.`);
const stop = () => {
  server.kill('SIGTERM');
  void simulator.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
