import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { logNotary } from '../src/operations/deps.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import type { ExportHeader } from '../src/operations/transfer-log.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { jsonOf, parsedAs } from './support/json.js';
import { stringContaining } from './support/matchers.js';
import { githubObservation, postgresTestStore } from './support/record.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

/** Runs `tended ARGS` as a real process with the given environment. */
function tended(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, TENDED_OBSERVER: 'off', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/**
 * Runs `tended ARGS` (a shell command line's tail, with its redirections) under a pseudo-terminal,
 * as from a person's terminal: what the terminal received, split into lines (the terminal ends
 * lines with CR LF).
 */
function inTerminal(args: string): Promise<{ lines: string[] }> {
  return new Promise((resolve) => {
    const command = `${process.execPath} ${MAIN} ${args}`;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, TENDED_OBSERVER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => resolve({ lines: out.split('\r\n') }));
  });
}

let dir: string;
let source: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-'));
  source = { DATABASE_URL: `sqlite:${join(dir, 'source', 'tended.db')}` };
  // Seed the source store the way the service would, signed with the key `tended` will find.
  const key = loadOrCreateSigningKey(join(dir, 'source', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'source', 'tended.db'));
  await store.initialiseLog(notary.seal);
  for (let month = 1; month <= 9; month++) {
    await store.appendObservations(
      [
        githubObservation('acme/widget', `2025-0${month}-01`, month < 5 ? 'alive' : 'dormant'),
        githubObservation('acme/gadget', `2025-0${month}-01`, 'alive'),
      ],
      notary.seal,
    );
  }
  await store.appendObservations([githubObservation('acme/retired', '2025-09-01', 'archived')], notary.seal);
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tended export / import / verify', () => {
  it(
    'verifies the store, exports it, and imports it into an empty store with the same root',
    { timeout: 120_000 },
    async () => {
      const verified = await tended(['verify'], source);
      expect(verified.code).toBe(0);
      expect(verified.out).toMatch(/verified: 19 leaves .* as signed; 11 heads chain/);

      const file = join(dir, 'export.jsonl');
      expect((await tended(['export', '--out', file], source)).code).toBe(0);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(20);
      const header = parsedAs<ExportHeader>(lines[0]!);
      expect(header).toMatchObject({ _type: 'tended/export/v1', start: 0, tree_size: 19, license: 'CC-BY-4.0' });

      expect((await tended(['verify', '--file', file], {})).code).toBe(0);

      const copy = { DATABASE_URL: `sqlite:${join(dir, 'copy', 'tended.db')}` };
      const imported = await tended(['import', file], copy);
      expect(imported.err).not.toMatch(/Error/);
      expect(imported.code).toBe(0);
      const root = header.checkpoint.split('\n')[2];
      expect(imported.out).toContain(`root ${root} matches`);
      expect((await tended(['verify'], copy)).code).toBe(0);

      const again = await tended(['import', file], copy);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/already holds leaves/);
    },
  );

  it('imports into PostgreSQL and reproduces the root', async () => {
    const file = join(dir, 'export-pg.jsonl');
    expect((await tended(['export', '--out', file], source)).code).toBe(0);
    const pg = await postgresTestStore();
    try {
      const env = { DATABASE_URL: pg.url, TENDED_SIGNING_KEY: join(dir, 'pg-key.pem') };
      const imported = await tended(['import', file], env);
      expect(imported.code).toBe(0);
      expect(await pg.store.treeSize()).toBe(19);
      expect((await pg.store.latestHead())!.root_hash).toBe(
        parsedAs<ExportHeader>(readFileSync(file, 'utf8').split('\n')[0]!).checkpoint.split('\n')[2],
      );
      expect((await tended(['verify'], env)).code).toBe(0);
    } finally {
      await pg.dispose();
    }
  });

  it('refuses a tampered export and writes nothing', async () => {
    const file = join(dir, 'export.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[5] = lines[5]!.replace('"alive"', '"abandoned"');
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, lines.join('\n'));
    const verify = await tended(['verify', '--file', tampered], {});
    expect(verify.code).toBe(1);
    expect(verify.err).toMatch(/does NOT verify: the leaves give root/);
    const target = { DATABASE_URL: `sqlite:${join(dir, 'refused', 'tended.db')}` };
    const imported = await tended(['import', tampered], target);
    expect(imported.code).toBe(1);
    expect(imported.err).toMatch(/nothing was imported/);
    const store = await openSqliteStore(join(dir, 'refused', 'tended.db'));
    expect(await store.treeSize()).toBe(0);
    await store.close();

    const wrongKey = await tended(
      ['verify', '--file', file, '--key', 'other+00000000+AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      {},
    );
    // Its key id does not match its key: not a usable key, said in one sentence (it was a stack trace).
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.err).toMatch(/is not a usable verifier key \(verifier key ID does not match its key\)/);
  });

  it(
    "puts verify's result on a line of its own, after its progress, whether stdout or both are piped",
    { timeout: 180_000 },
    async () => {
      const file = join(dir, 'piped-export.jsonl');
      expect((await tended(['export', '--out', file], source)).code).toBe(0);
      const tampered = join(dir, 'piped-tampered.jsonl');
      const broken = readFileSync(file, 'utf8').split('\n');
      broken[5] = broken[5]!.replace('"alive"', '"abandoned"');
      writeFileSync(tampered, broken.join('\n'));
      // As a person runs it in a terminal: `tended verify | cat` (progress drawn on the terminal,
      // the result through the pipe) and `tended verify 2>&1 | cat` (both through one pipe). The
      // exit status is cat's there; the sentences say which.
      for (const pipe of ['| cat', '2>&1 | cat']) {
        const good = await inTerminal(`verify --file ${file} ${pipe}`);
        expect(good.lines).toContainEqual(expect.stringMatching(/^verified: 19 leaves /));
        const bad = await inTerminal(`verify --file ${tampered} ${pipe}`);
        expect(bad.lines).toContainEqual(
          expect.stringMatching(/^tended: the log does NOT verify: the leaves give root/),
        );
        for (const line of [...good.lines, ...bad.lines]) {
          // A progress line never runs into a sentence: what follows its last redraw is empty.
          const drawn = line.split('\r').at(-1)!.replaceAll('\x1b[K', '');
          expect(drawn, JSON.stringify(line)).not.toMatch(/leaves \([\d,]+\/s[^)]*\)./);
        }
        // Off a terminal (both piped) no redraw at all: the summary line and the result, each whole.
        if (pipe.startsWith('2>&1')) {
          expect(good.lines.filter((l) => l.includes('\r') || l.includes('\x1b'))).toEqual([]);
          expect(good.lines).toContainEqual(expect.stringMatching(/^verify: 19 leaves in \d+\.\d s \([\d,]+\/s\)$/));
        }
      }
    },
  );

  it('verifies a running service from its published entries alone', async () => {
    const port = 18000 + Math.floor(Math.random() * 1000);
    const server = spawn(process.execPath, [MAIN, 'serve'], {
      env: { ...process.env, ...source, PORT: String(port), TENDED_OBSERVER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stdout.on('data', (d) => String(d).includes('listening') && resolve());
        server.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const head = await jsonOf<HeadAnswer>(await fetch(`http://127.0.0.1:${port}/api/chain/head`));
      const result = await tended(['verify', '--url', `http://127.0.0.1:${port}`, '--key', head.verifier_key], {});
      // Off a terminal, one summary line and nothing else (no warning: the key was pinned).
      expect(result.err).toMatch(/^verify: 19 leaves in \d+\.\d s \([\d,]+\/s\)\n$/);
      expect(result.out).toMatch(/verified: 19 leaves/);
      expect(result.code).toBe(0);
    } finally {
      server.kill('SIGTERM');
    }
  });

  it('checks a local manifest against the store, failing the gate only on a component that is not maintained', async () => {
    const ok = join(dir, 'ok.yml');
    writeFileSync(
      ok,
      'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/widget@v1\n      - uses: acme/unknown@v2\n',
    );
    const passed = await tended(['check', ok, '--as-of', '2025-09-15'], source);
    expect(passed.code).toBe(0);
    expect(passed.out).toMatch(/dormant\s+2025-09-01\s+interval-censored\s+github:acme\/widget/);
    // Never read: "not checked", as every report words it (issue 27 item 1).
    expect(passed.out).toMatch(/not checked\s+-\s+not-observed-at-date\s+github:acme\/unknown/);
    const gate = join(dir, 'gate.yml');
    writeFileSync(
      gate,
      'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/retired@v1\n',
    );
    const failed = await tended(['check', gate, '--format', 'json', '--as-of', '2025-10-01'], source);
    expect(failed.code).toBe(1);
    expect(parsedAs<CheckAnswer>(failed.out).results[0]).toMatchObject({
      state: 'archived',
      observation_date: '2025-09-01',
    });
    // Today the same reading is over 180 days old: no state is asserted, and the gate does not fail on it.
    const stale = await tended(['check', gate, '--format', 'json'], source);
    expect(stale.code).toBe(0);
    expect(parsedAs<CheckAnswer>(stale.out).results[0]).toMatchObject({
      state: 'unknown-stale',
      observation_date: '2025-09-01',
    });
  });

  it('names an SBOM’s subject in the JSON of `check`', async () => {
    const bom = join(dir, 'bom.json');
    writeFileSync(
      bom,
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        metadata: { component: { name: 'my-app', version: '3.1.0', 'bom-ref': 'my-app@3.1.0' } },
        components: [{ name: 'widget', purl: 'pkg:github/acme/widget@v1' }],
      }),
    );
    const r = await tended(['check', bom, '--format', 'json', '--as-of', '2025-09-15'], source);
    expect(r.err).toBe('');
    const answer = parsedAs<CheckAnswer>(r.out);
    expect(answer.subject).toEqual({ name: 'my-app', version: '3.1.0', bom_ref: 'my-app@3.1.0' });
    expect(answer.results.map((x) => x.input.name)).toEqual(['acme/widget']);
  });

  it('checks against a running service with --url: the same answer and exit code as the local store', async () => {
    const server = spawn(process.execPath, [MAIN, 'serve'], {
      env: { ...process.env, ...source, PORT: '0', HOST: '127.0.0.1', TENDED_OBSERVER: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        server.stdout.on('data', (d) => {
          const m = /listening on (http:\/\/\S+)/.exec(String(d));
          if (m) resolve(m[1]!);
        });
        server.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const ok = join(dir, 'remote-ok.yml');
      writeFileSync(
        ok,
        'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/widget@v1\n      - uses: acme/unknown@v2\n',
      );
      const gate = join(dir, 'remote-gate.yml');
      writeFileSync(
        gate,
        'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/retired@v1\n',
      );
      for (const [file, asOf, code] of [
        [ok, '2025-09-15', 0],
        [gate, '2025-10-01', 1],
      ] as const) {
        const args = ['check', file, '--format', 'json', '--as-of', asOf];
        const [local, remote] = await Promise.all([tended(args, source), tended([...args, '--url', `${url}/`], {})]);
        // Nothing on stderr but, when the gate fails, the sentence naming what failed it.
        expect(remote.err, file).toBe(code === 1 ? local.err : '');
        expect(remote.code, file).toBe(code);
        expect(local.code, file).toBe(code);
        // The same answer, but for what each says about the components it holds nothing of: the
        // service says how to have them queued, the local check how to read them now (--observe).
        const { discovery: remoteDiscovery, ...remoteAnswer } = JSON.parse(remote.out) as Record<string, unknown>;
        const { discovery: localDiscovery, ...localAnswer } = JSON.parse(local.out) as Record<string, unknown>;
        expect(remoteAnswer, file).toEqual(localAnswer);
        if (file === ok) {
          // Said in the CLI's terms: its way to ask is --queue, not the API's ?queue=true.
          expect(remoteDiscovery).toMatchObject({ unheld: 1, queued: 0, note: stringContaining('--queue') });
          expect((remoteDiscovery as { note: string }).note).not.toContain('?queue=true');
          expect(localDiscovery).toMatchObject({ unheld: 1, queued: 0, note: stringContaining('--observe') });
        }
      }
      // The service's own refusal is passed on as its sentence, with exit 2 rather than the gate's 1.
      const wrongPath = await tended(['check', gate, '--url', `${url}/not-tended`], {});
      expect(wrongPath.code).toBe(2);
      expect(wrongPath.err).toMatch(
        /^tended: http:\/\/127\.0\.0\.1:\d+\/not-tended\/api\/v1\/manifest answered 404 Not Found: There is nothing at \/not-tended\/api\/v1\/manifest\./,
      );
      expect(wrongPath.err.trim().split('\n')).toHaveLength(1);
    } finally {
      server.kill('SIGTERM');
    }
  }, 120_000);

  it('says which --url could not answer and why, with no stack trace: 3 when unreachable, 2 when it is no Tended service', async () => {
    const gate = join(dir, 'remote-closed.yml');
    writeFileSync(
      gate,
      'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/retired@v1\n',
    );
    // A port that was free a moment ago: nothing listens there.
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const closed = await tended(['check', gate, '--url', `http://127.0.0.1:${closedPort}`], {});
    expect(closed.code).toBe(3);
    expect(closed.out).toBe('');
    expect(closed.err).toBe(
      `tended: could not reach http://127.0.0.1:${closedPort}/api/v1/manifest: the connection was refused (ECONNREFUSED); check --url and that the service is running. Nothing was checked.\n`,
    );
    // Something that answers, but not as Tended: a web page.
    const page = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>hello</p>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const pagePort = (page.address() as AddressInfo).port;
      const html = await tended(['check', gate, '--url', `http://127.0.0.1:${pagePort}`], {});
      expect(html.code).toBe(2);
      expect(html.err).toMatch(
        /^tended: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/manifest answered 200 with something other than a Tended check answer \(text\/html\); is --url the address of a Tended service\?\n$/,
      );
    } finally {
      await new Promise((resolve) => page.close(resolve));
    }
    const notUrl = await tended(['check', gate, '--url', 'localhost:8080'], {});
    expect(notUrl.code).toBe(2);
    expect(notUrl.err).toMatch(/^tended: --url localhost:8080 is not an http:\/\/ or https:\/\/ address/);
  }, 120_000);

  it('explains usage errors with exit code 2', async () => {
    expect((await tended(['frobnicate'], {})).code).toBe(2);
    const bad = await tended(['serve'], { PORT: 'eighty' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/PORT/);
    expect((await tended(['export', '--since', 'last week'], source)).err).toMatch(/YYYY-MM-DD/);
    // A --key that is no verifier key: the caller's to fix, one sentence, no stack trace.
    const exported = join(dir, 'usage-export.jsonl');
    expect((await tended(['export', '--out', exported], source)).code).toBe(0);
    const badKey = await tended(
      ['verify', '--file', exported, '--key', `tended.local/log/v1+12345678+${'A'.repeat(44)}`],
      source,
    );
    expect(badKey.code).toBe(2);
    expect(badKey.err).toMatch(/^tended: --key .* is not a usable verifier key \(.*\); pass the log's key/);
    expect(badKey.err.trim().split('\n')).toHaveLength(1);
  });

  it('stops quietly when the reader of its output goes away (`tended watch list | head`)', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'pipe', 'tended.db')}` };
    const pairs = Array.from({ length: 4_000 }, (_, i) => ['npm', `piped-${i}`]).flat();
    expect((await tended(['watch', 'add', ...pairs], env)).code).toBe(0);
    const child = spawn(process.execPath, [MAIN, 'watch', 'list'], {
      env: { ...process.env, TENDED_OBSERVER: 'off', ...env },
    });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    // Like `head -1`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(err).not.toMatch(/EPIPE|at /);
    expect(code).toBe(0);
  });
});

describe('tended keys', () => {
  it('prints a new key once, keeps only its hash, lists and revokes it', { timeout: 120_000 }, async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'keys', 'tended.db')}` };
    const created = await tended(['keys', 'create', '--label', 'ci bot'], env);
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^tnd_[\w-]{43}$/);
    expect(created.err).toMatch(/created API key k_[0-9a-f]{10} \(ci bot\), 600 requests per minute/);
    const id = /(k_[0-9a-f]{10})/.exec(created.err)![1]!;
    // The database holds the key's SHA-256, never the key.
    const files = readdirSync(join(dir, 'keys')).filter((f) => f.startsWith('tended.db'));
    const bytes = files.map((f) => readFileSync(join(dir, 'keys', f)).toString('latin1')).join('');
    expect(bytes.includes(key)).toBe(false);
    expect(bytes.includes(createHash('sha256').update(key).digest('hex'))).toBe(true);

    const listed = await tended(['keys', 'list'], env);
    expect(listed.out).toMatch(new RegExp(`^${id}\\tactive\\tcreated \\S+\\tci bot$`, 'm'));
    expect(listed.out.includes(key)).toBe(false);
    const revoked = await tended(['keys', 'revoke', id], env);
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(/within 30 s/);
    expect((await tended(['keys', 'list'], env)).out).toMatch(new RegExp(`^${id}\\trevoked \\S+`, 'm'));
    expect((await tended(['keys', 'revoke', id], env)).code).toBe(1);
    expect((await tended(['keys', 'rotate'], env)).code).toBe(2);
  });
});
