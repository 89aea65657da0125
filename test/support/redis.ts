import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** The machine's Redis for the suites that share it; a missing server fails them, never skips. */
export const REDIS_URL = process.env.TENDED_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test uses, so suites sharing one Redis never see each other's buckets. */
export function uniquePrefix(): string {
  return `tended-test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under a prefix (after a test on the shared Redis). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A throwaway redis-server of this test's own (no persistence), which the test may kill and start
 * again on the same port: "Redis stopped mid-run" without touching the machine's Redis.
 */
export interface ThrowawayRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function throwawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      if (child && child.exitCode === null)
        return reject(new Error(`the throwaway Redis on ${port} is already running`));
      const c = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = c;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start on ${port}: ${out}`)), 5_000);
      c.stdout.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      c.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
