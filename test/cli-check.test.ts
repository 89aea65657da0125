import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent } from '../src/domain/component.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import { githubObservation } from './support/record.js';
import { serveAt, tended as tendedAt, type TendedProcess } from './support/tended-processes.js';

/**
 * `tended check` as a CI user meets it, a real process over a real SQLite record (and a real
 * `tended serve` for --url): every way it can end says why in a sentence, in the CLI's own terms,
 * with an exit code a job can branch on (0 pass, 1 gate failed, 2 usage error, 3 unavailable).
 */
const AT = '2026-11-20 12:00:00';

let dir: string;
let env: Record<string, string>;
let server: (TendedProcess & { url: string }) | null = null;

async function tended(args: string[], extra: Record<string, string> = {}) {
  return tendedAt(args, { ...env, ...extra }, AT).exited;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-check-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'record', 'tended.db')}` };
  const key = loadOrCreateSigningKey(join(dir, 'record', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'record', 'tended.db'));
  await store.initialiseLog(notary.seal);
  await store.appendObservations(
    [
      { ...githubObservation('acme/x', '2026-11-01', 'archived'), component: normaliseComponent('npm', 'express') },
      { ...githubObservation('acme/x', '2026-11-02', 'alive'), component: normaliseComponent('npm', 'lodash') },
      { ...githubObservation('acme/x', '2026-11-03', 'eol'), component: normaliseComponent('npm', 'old-thing') },
    ],
    notary.seal,
  );
  await store.close();
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ dependencies: { lodash: '^4', express: '^4', 'old-thing': '1', local: 'workspace:*' } }),
  );
  writeFileSync(join(dir, 'one.json'), JSON.stringify({ dependencies: { lodash: '^4', local: 'workspace:*' } }));
  writeFileSync(join(dir, 'unheld.json'), JSON.stringify({ dependencies: { 'never-seen': '1' } }));
  writeFileSync(join(dir, 'binary.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  writeFileSync(join(dir, 'empty.json'), '{}\n');
  writeFileSync(join(dir, 'README.md'), '# My app\n\nIt does things, and it does them well.\n');
  mkdirSync(join(dir, 'a-directory'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('tended check, as a CI user meets it', () => {
  it('names the components that failed the gate, on stderr, and exits 1', async () => {
    const r = await tended(['check', join(dir, 'package.json'), '--fail-on', 'archived,eol']);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'tended: the check fails: 2 of 3 components as of 2026-11-20 are in a state that fails it (--fail-on archived, eol): ' +
        'npm:express archived (observed 2026-11-01, dependencies.express); npm:old-thing eol (observed 2026-11-03, dependencies.old-thing).\n',
    );
    const passed = await tended(['check', join(dir, 'package.json'), '--fail-on', 'none']);
    expect(passed.code).toBe(0);
    expect(passed.err).toBe('');
  });

  it('counts in words: one component, one entry', async () => {
    const r = await tended(['check', join(dir, 'one.json')]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('as of 2026-11-20 (package-json): 1 component, 1 entry without one');
  });

  it.each([
    ['binary.dat', /: it is not text \(binary data\)\. /],
    ['empty.json', /: it is an empty JSON object \(\{\}\), with no dependencies, components or packages\. /],
    ['README.md', /: it is text in the shape of none of them\. /],
  ])('tells what %s is and what check reads, SBOMs included, in its own terms', async (name, what) => {
    const r = await tended(['check', join(dir, name)]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(new RegExp(`^tended: ${join(dir, name)}: Tended could not tell what kind of file this is`));
    expect(r.err).toMatch(what);
    expect(r.err).toMatch(/or an SBOM \(CycloneDX .*SPDX .*\)/);
    // The CLI has no "filename" field and no ?format=: the file's own name says which manifest it is.
    expect(r.err).not.toMatch(/"filename"|\?format=/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('says an empty requirements.txt names no components, and passes (exit 0)', async () => {
    mkdirSync(join(dir, 'empty-reqs'), { recursive: true });
    writeFileSync(join(dir, 'empty-reqs', 'requirements.txt'), '');
    const r = await tended(['check', join(dir, 'empty-reqs', 'requirements.txt')]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(
      /requirements\.txt, read as requirements, names no components \(it is empty, or holds only comments or blank lines\): nothing was checked/,
    );
  });

  it.each([
    [
      'answers in something that is not HTTP',
      'http',
      (c: Socket) => c.end('SSH-2.0-OpenSSH_9.2\r\n'),
      /could not speak HTTP to .*: what it sent back is not HTTP \((HPE_[A-Z_]+|HTTPParserError)\); is it a Tended server\?/,
    ],
  ])('--url at a port that %s: a sentence, never a bare code', async (_what, scheme, answer, said) => {
    const odd = createNetServer((c) => c.once('data', () => answer(c)).on('error', () => undefined));
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const port = (odd.address() as AddressInfo).port;
    try {
      const r = await tended(['check', join(dir, 'package.json'), '--url', `${scheme}://127.0.0.1:${port}`]);
      expect([2, 3]).toContain(r.code);
      expect(r.err).toMatch(said);
      expect(r.err).toMatch(/Nothing was checked\.\n$/);
    } finally {
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it('says so when no entry of a file names a component (prose read as requirements.txt)', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'Buy milk and eggs.\nCall the plumber!\n');
    const r = await tended(['check', join(dir, 'notes.txt')]);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe('as of 2026-11-20 (requirements): 0 components, 2 entries without one');
    expect(r.err).toBe(
      `tended: none of the 2 entries of ${join(dir, 'notes.txt')}, read as requirements, names a component Tended reads: nothing was checked. Is it the file you meant?\n`,
    );
  });

  it('says why a file cannot be read: missing, or a directory with nothing to check', async () => {
    const missing = await tended(['check', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`tended: cannot read ${join(dir, 'nope.json')}: there is no such file\n`);
    // A directory is walked (test/cli-check-dir.test.ts); one with nothing to check says so.
    const directory = await tended(['check', join(dir, 'a-directory')]);
    expect(directory.code).toBe(2);
    expect(directory.err).toMatch(
      /^tended: found no manifest, lockfile or SBOM to check in .*a-directory \(the walk's rules: docs\/cli\.md "Checking a directory"\); name a file/,
    );
  });

  it('says why the files of import, verify and verify-verdict cannot be read, as usage errors', async () => {
    const cases: [string[], string][] = [
      [
        ['import', join(dir, 'nope.jsonl')],
        `tended: cannot read ${join(dir, 'nope.jsonl')}: there is no such file; nothing was imported\n`,
      ],
      [
        ['verify', '--file', join(dir, 'a-directory')],
        `tended: cannot read ${join(dir, 'a-directory')}: it is a directory; name a file inside it\n`,
      ],
      [
        ['verify-verdict', join(dir, 'nope.json'), '--keys', join(dir, 'keys.json')],
        `tended: cannot read ${join(dir, 'nope.json')}: there is no such file\n`,
      ],
      [['export', '--since', '2025-02-30'], 'tended: --since 2025-02-30 is not a date: February 2025 has 28 days\n'],
    ];
    for (const [args, message] of cases) {
      const r = await tended(args, { DATABASE_URL: `sqlite:${join(dir, 'other', 'tended.db')}` });
      expect(r.err, args.join(' ')).toBe(message);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });

  it.each([
    ['2025-02-30', 'tended: --as-of 2025-02-30 is not a date: February 2025 has 28 days\n'],
    ['2025-13-01', 'tended: --as-of 2025-13-01 is not a date: there is no month 13\n'],
    [
      '2027-01-01',
      'tended: --as-of 2027-01-01 is after today (2026-11-20, UTC): the record holds nothing later than today\n',
    ],
    ['01/02/2025', 'tended: --as-of takes a date written YYYY-MM-DD, e.g. 2025-07-01; got "01/02/2025"\n'],
  ])('says what is wrong with --as-of %s', async (asOf, message) => {
    const r = await tended(['check', join(dir, 'package.json'), '--as-of', asOf]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(message);
  });

  it('exits 3, not 2, when the service does not answer or cannot answer now', async () => {
    const busy = createServer((_req, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"The record is not reachable."}'),
    );
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await tended(['check', join(dir, 'package.json'), '--url', `http://127.0.0.1:${port}`]);
      expect(r.code).toBe(3);
      expect(r.err).toMatch(
        /answered 503 Service Unavailable: The record is not reachable\. Nothing is wrong with the command: run it again later\.\n$/,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const gone = await tended(['check', join(dir, 'package.json'), '--url', `http://127.0.0.1:${port}`]);
    expect(gone.code).toBe(3);
    expect(gone.err).toMatch(
      /^tended: could not reach http:\/\/127\.0\.0\.1:\d+\/api\/v1\/manifest: the connection was refused/,
    );
  });

  it('verify --url: a service that is not there is 3 and a sentence, never "does NOT verify" or a stack trace', async () => {
    const busy = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await tended(['verify', '--url', `http://127.0.0.1:${port}`]);
      expect(r.code).toBe(3);
      expect(r.err).toBe(
        `tended: http://127.0.0.1:${port}/api/chain/head answered 503 Service Unavailable; nothing was verified. Nothing is wrong with the command: run it again later.\n`,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const gone = await tended(['verify', '--url', `http://127.0.0.1:${port}`]);
    expect(gone.code).toBe(3);
    expect(gone.err).toBe(
      `tended: could not reach http://127.0.0.1:${port}/api/chain/head: the connection was refused (ECONNREFUSED); check --url and that the service is running. Nothing was verified.\n`,
    );
  });

  it('tells a CLI user to add --queue, and --queue has the service queue what it does not hold', async () => {
    server = await serveAt(env, AT);
    const file = join(dir, 'unheld.json');
    const asked = await tended(['check', file, '--url', server.url]);
    expect(asked.code).toBe(0);
    expect(asked.out).toMatch(
      /\nThe service holds no observation of 1 of these components on or before 2026-11-20\. Run the same check with --queue /,
    );
    expect(asked.out).not.toContain('?queue=true');
    const queued = await tended(['check', file, '--url', server.url, '--queue', '--format', 'json']);
    expect(queued.code, queued.err).toBe(0);
    expect(parsedAs<CheckAnswer>(queued.out).discovery).toMatchObject({ unheld: 1, queued: 1, not_queued: 0 });
    const watched = await tended(['watch', 'list']);
    expect(watched.out).toMatch(/npm\tnever-seen\t.*discovered/);
  });

  it('prints its version, and its help names every exit code', async () => {
    const version = await tended(['--version']);
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^tended \d+\.\d+\.\d+\n$/);
    const help = await tended(['help']);
    expect(help.out).toMatch(
      /\nexit codes:\n {2}0 {2}.*\n {2}1 {2}.*gate failed.*\n(?: {5}.*\n)* {2}2 {2}a usage error.*\n(?: {5}.*\n)* {2}3 {2}.*service at --url/,
    );
  });
});
