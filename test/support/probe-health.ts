import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { listen } from '../../src/cli/serve.js';
import { sharedParsePool } from '../../src/operations/parse-pool.js';
import { limitedApp } from './limits.js';
import { sqliteTestStore } from './record.js';

/**
 * Sends one request and asks /healthz again and again while it is in flight: the slowest health
 * answer is how long the request held the server's event loop. Used by the adversarial tests and
 * bench:adversarial.
 */
export interface ProbedAnswer {
  status: number;
  text: string;
  /** From sending to the last byte of the answer. */
  ms: number;
  /** Every /healthz asked meanwhile: its status and how long it took. */
  health: { status: number; ms: number }[];
}

export async function whileProbingHealth(base: string, send: () => Promise<Response>): Promise<ProbedAnswer> {
  const started = performance.now();
  const answer = send().then(async (res) => ({
    status: res.status,
    text: await res.text(),
    ms: performance.now() - started,
  }));
  let done = false;
  void answer.finally(() => (done = true));
  const health: { status: number; ms: number }[] = [];
  while (!done) {
    const asked = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    health.push({ status: res.status, ms: performance.now() - asked });
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { ...(await answer), health };
}

/** The most an answer may take (issue 24): ten times the request plus 1 MB. */
export const answerBound = (requestBytes: number) => 10 * requestBytes + 1_000_000;

// Parsing runs in worker threads under a 1 s deadline (DESIGN §8c), so no answer waits much past
// it and the event loop stays free. bench:adversarial measures the figures (≤ 1.5 s, /healthz
// ≤ 250 ms) on a quiet machine; these bounds leave room for a 2-core CI machine running other suites
// in parallel threads (seen there: one /healthz of 948 ms while the test's own thread waited for a
// core), and still fail a parse on the event loop, which held it for several seconds on these shapes.
export const ANSWER_MS = 3_000;
export const HEALTH_MS = 1_500;

/** The app over a fresh SQLite record on a loopback port, limits out of the way, its parse workers started. */
export async function servedForFire(): Promise<{ base: string; close(): Promise<void> }> {
  const t = await sqliteTestStore();
  const made = limitedApp(t.store, { free: 100_000 });
  let server!: ServerType;
  await new Promise<void>((resolve) => {
    server = listen(made.app.fetch, { port: 0, host: '127.0.0.1' }, () => resolve());
  });
  // As serve does before it listens: the first test measures a parse, not the workers' start.
  await sharedParsePool().ready();
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await made.limiter.close();
      await t.dispose();
    },
  };
}
