import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { build } from '../../src/http/app.js';
import { createRateLimiter } from '../../src/limits/limiter.js';
import type { RecordDeps } from '../../src/operations/deps.js';
import { HeadAnswers } from '../../src/operations/read-chain.js';
import { closedSources } from './limits.js';

const WITNESS = fileURLToPath(new URL('./tlog-witness.mjs', import.meta.url));

export interface TestWitness {
  name: string;
  vkey: string;
  /** Its submission prefix. */
  url: string;
  child: ChildProcess;
  /** What it printed: a line per refused inconsistent checkpoint among them. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts test/support/tlog-witness.mjs (its own process) for `logs`, its state kept in `dir`. */
export function startWitness(
  name: string,
  logs: { origin: string; vkey: string }[],
  dir: string,
): Promise<TestWitness> {
  const config = {
    name,
    seed: randomBytes(32).toString('hex'),
    state: join(dir, `${randomBytes(4).toString('hex')}.json`),
    logs,
  };
  const child = spawn(process.execPath, [WITNESS, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`the test witness exited (${code}): ${err}`)));
    child.stdout.on('data', () => {
      const port = /listening (\d+)/.exec(out)?.[1];
      const vkey = /vkey (\S+)/.exec(out)?.[1];
      if (!port || !vkey) return;
      resolve({
        name,
        vkey,
        url: `http://127.0.0.1:${port}`,
        child,
        output: () => out,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.on('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** The app over `deps`, served on a free loopback port. */
export async function serveLog(deps: RecordDeps): Promise<{ url: string; close(): Promise<void> }> {
  const limiter = createRateLimiter({ free: 1_000_000, keyed: 1_000_000 });
  const app = build({
    ...deps,
    headAnswers: new HeadAnswers(),
    sources: closedSources(),
    logError: (error) => console.error(error),
    limiter,
  });
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- node:http ignores the listener's promise; hono's listener handles its own errors
  const server: Server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await limiter.close();
    },
  };
}
