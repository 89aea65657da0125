// npm run cluster — the scale-out deployment (DESIGN §8) on one machine, to try it: PostgreSQL
// (127.0.0.1:5432, user postgres, trust auth) and Redis (127.0.0.1:6379) of this machine, the
// upstream simulator, N stateless `serve` instances on consecutive ports, two `observe` workers
// sharing the watch list, and a small round-robin proxy in front. Ctrl-C stops everything.
//
//   npm run cluster                        # 3 instances from port 8081, the proxy on 8080
//   INSTANCES=5 BASE_PORT=9001 PROXY_PORT=9000 DATABASE=tended_cluster npm run cluster
import { spawn, type ChildProcess } from 'node:child_process';
import { request, createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { demoScenario } from '../src/simulator/demo.js';
import { upstreamEnv } from '../src/simulator/env.js';
import { scenarioComponents } from '../src/simulator/scenario.js';
import { startSimulator } from '../src/simulator/server.js';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;
const INSTANCES = Number(process.env.INSTANCES ?? 3);
const BASE_PORT = Number(process.env.BASE_PORT ?? 8081);
const PROXY_PORT = Number(process.env.PROXY_PORT ?? 8080);
const DATABASE = process.env.DATABASE ?? 'tended_cluster';
const SERVER = process.env.POSTGRES_SERVER ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// One database for the whole cluster, made on first use and kept between runs.
const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
await admin.connect();
const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${DATABASE.replace(/"/g, '""')}"`);
await admin.end();

const scenario = demoScenario();
const simulator = await startSimulator({ scenario });
// Every process signs the log's heads: they share one checkpoint key, kept beside the database's
// lifetime (data/ is not committed), so a second run extends a log the same key signed.
const dir = join(process.cwd(), 'data', 'cluster');
mkdirSync(dir, { recursive: true });
const env = {
  ...process.env,
  DATABASE_URL: `${SERVER}/${DATABASE}`,
  REDIS_URL,
  TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem'),
  TENDED_OBSERVER: 'off',
  TENDED_TRUST_PROXY: '127.0.0.1',
  TENDED_PUBLIC_URL: `http://127.0.0.1:${PROXY_PORT}`,
  ...upstreamEnv(simulator.urls),
};

const children: ChildProcess[] = [];
const tended = (name: string, args: string[], extra: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (line: string) => (line ? `[${name}] ${line}\n` : '');
  child.stdout.on('data', (d: Buffer) => process.stdout.write(String(d).split('\n').map(prefix).join('')));
  child.stderr.on('data', (d: Buffer) => process.stderr.write(String(d).split('\n').map(prefix).join('')));
  children.push(child);
  return new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
};

// Runs to completion first: it makes the key and the schema before the long-running processes start.
const pairs = scenarioComponents(scenario).flatMap((r) => [r.kind, r.id]);
if ((await tended('watch', ['watch', 'add', ...pairs])) !== 0)
  throw new Error('tended watch add failed; is PostgreSQL up on 127.0.0.1:5432?');

const ports = Array.from({ length: INSTANCES }, (_, i) => BASE_PORT + i);
ports.forEach((port, i) => void tended(`serve ${i + 1}`, ['serve'], { PORT: String(port) }));
for (const n of [1, 2]) void tended(`observe ${n}`, ['observe']);

// Round robin over the instances, saying who the client is in X-Forwarded-For (which the instances
// believe because TENDED_TRUST_PROXY names this proxy's address).
let next = 0;
const proxy = createServer((req, res) => {
  const port = ports[next++ % ports.length]!;
  const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const upstream = request(
    {
      host: '127.0.0.1',
      port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwarded },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: `The instance on port ${port} did not answer; try again.` }));
  });
  req.pipe(upstream);
});
proxy.listen(PROXY_PORT, '127.0.0.1');
// The URLs are printed once every instance answers.
for (const port of ports) {
  for (let i = 0; ; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 600) throw new Error(`the instance on port ${port} did not start within a minute`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

console.log(`
Tended cluster: PostgreSQL ${SERVER}/${DATABASE}, Redis ${REDIS_URL}, upstreams simulated on ${simulator.url}
  proxy (round robin)  http://127.0.0.1:${PROXY_PORT}
${ports.map((p, i) => `  serve ${i + 1}              http://127.0.0.1:${p}`).join('\n')}
  2 observe workers sharing the watch list
Try:
  curl -s http://127.0.0.1:${PROXY_PORT}/healthz
  curl -s http://127.0.0.1:${PROXY_PORT}/api/v1/entity/acme/rocket
  DATABASE_URL=${SERVER}/${DATABASE} TENDED_SIGNING_KEY=${env.TENDED_SIGNING_KEY} npm run tended -- verify
Ctrl-C to stop.`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  proxy.close();
  void Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
  ).then(async () => {
    await simulator.close();
    process.exit(0);
  });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
