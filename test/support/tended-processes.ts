import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import type { ComponentRef } from '../../src/domain/component.js';
import type { Store } from '../../src/storage/store.js';
import { clockedNode } from './clock.js';
import { freePort } from './redis.js';
import { TENDED_MAIN as MAIN } from './tended-bin.js';

/** Real `tended` processes for the fault tests: the CLI as an operator runs it, its clock set by the test preload. */

export interface TendedProcess {
  readonly child: ChildProcess;
  readonly output: () => { out: string; err: string };
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
  /** Sends `signal` to tended's whole process group (tended and anything it started). */
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * Runs `tended ARGS…` with `env`, its clock set to `at` ('YYYY-MM-DD HH:MM:SS' UTC, ticking from
 * there) by the test-only clock preload: the only way Tended reads on a chosen date, and it keeps
 * a test that crosses midnight from splitting its observations over two dates.
 */
export function tended(args: string[], env: Record<string, string>, at: string): TendedProcess {
  // Its own process group, so one signal reaches tended and whatever it started, and nothing is
  // left running after the test.
  const clock = clockedNode(at);
  const child = spawn(process.execPath, [...clock.args, MAIN, ...args], {
    env: { ...process.env, TZ: 'UTC', TENDED_OBSERVER: 'off', ...env, ...clock.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const group = child.pid!;
  const alive = () => {
    try {
      process.kill(-group, 0);
      return true;
    } catch {
      return false;
    }
  };
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-group, signal);
    } catch {
      // the group has already ended
    }
  };
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })),
  );
  return {
    child,
    output: () => ({ out, err }),
    exited,
    kill,
    stop: async () => {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await exited;
      // The group may outlive the main process by a moment while connections close.
      await waitFor('the tended process group to end', 15_000, () => !alive());
      clearTimeout(timer);
    },
  };
}

/** `tended serve` on a free port; resolves once it answers /healthz. */
export async function serveAt(env: Record<string, string>, at: string): Promise<TendedProcess & { url: string }> {
  const port = await freePort();
  const p = tended(['serve'], { PORT: String(port), TENDED_RATE_LIMIT_FREE: '1000000', ...env }, at);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    `serve on ${port}`,
    60_000,
    async () => (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })).status === 200,
    () => p.output().err,
  );
  return { ...p, url };
}

/** Polls `check` until it holds; fails with `what` (and `detail()`) after `ms`. */
export async function waitFor(
  what: string,
  ms: number,
  check: () => Promise<boolean> | boolean,
  detail: () => string = () => '',
): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      if (await check()) return Date.now() - started;
    } catch {
      // not yet
    }
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms. ${detail()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Answer {
  path: string;
  at: number;
  ms: number;
  status: number;
  contentType: string;
  retryAfter: string | null;
  body: string;
}

/**
 * Steady read traffic against a running service: `concurrency` clients cycling over `paths`,
 * each answer kept. A request with no answer within 10 s counts as status 0 (a hang).
 */
export function load(url: string, paths: string[], concurrency = 4) {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const client = async () => {
    while (running) {
      const path = paths[n++ % paths.length]!;
      const at = Date.now();
      try {
        const r = await fetch(`${url}${path}`, {
          headers: { accept: path.startsWith('/api') || path === '/healthz' ? 'application/json' : 'text/html' },
          signal: AbortSignal.timeout(10_000),
        });
        const body = await r.text();
        answers.push({
          path,
          at,
          ms: Date.now() - at,
          status: r.status,
          contentType: r.headers.get('content-type') ?? '',
          retryAfter: r.headers.get('retry-after'),
          body,
        });
      } catch {
        answers.push({ path, at, ms: Date.now() - at, status: 0, contentType: '', retryAfter: null, body: '' });
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

/**
 * The end of every fault test: every watched component holds exactly one scheduled observation
 * dated `date` (none lost, none doubled), and the tree holds nothing else.
 */
export async function expectExactlyOnePerComponent(
  store: Store,
  expected: ComponentRef[],
  date: string,
): Promise<void> {
  const watched = (await store.watchList()).map((w) => w.component);
  const keys = new Set([...expected, ...watched].map((r) => `${r.kind}:${r.id}`));
  const problems: string[] = [];
  let total = 0;
  for (const key of keys) {
    const [kind, ...rest] = key.split(':');
    const observations = await store.observationsOf({ kind: kind as ComponentRef['kind'], id: rest.join(':') });
    total += observations.length;
    const onDate = observations.filter((o) => o.observation_date === date && o.corrects === null);
    if (onDate.length !== 1) problems.push(`${key}: ${onDate.length} observations dated ${date}`);
  }
  expect(problems).toEqual([]);
  expect(await store.treeSize()).toBe(total);
}

/** `tended verify`: the whole tree rebuilt from the store and checked against every signed head. */
export async function expectLogVerifies(env: Record<string, string>, at: string): Promise<void> {
  const result = await tended(['verify'], env, at).exited;
  expect(result.code, result.out + result.err).toBe(0);
}
