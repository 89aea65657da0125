// npm run demo — a living record in a minute: the simulator answers like the real upstreams, the
// observer reads it on several dates (scripts/demo-record.ts), the census reads the packages'
// dependents so they have pages, and the service serves the result on http://127.0.0.1:8080.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDemoRecord } from './demo-record.js';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
const PORT = process.env.PORT ?? '8080';
const dir = mkdtempSync(join(tmpdir(), 'tended-demo-'));
const demo = await buildDemoRecord(dir, MAIN, (line) => line !== '' && console.log(line));
console.log(`demo record in ${dir}; simulated upstreams on ${demo.simulator.url}`);
demo.live();
const server = spawn(process.execPath, [MAIN, 'serve'], { env: { ...demo.env, PORT }, stdio: 'inherit' });
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
  void demo.simulator.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
