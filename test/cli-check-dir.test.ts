import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
 * `tended check DIR` as a real process over a real SQLite record (and a real `tended serve` for
 * --url): the walk's choices, one report grouped by file, a file that fails reported alone while
 * the others still run, the worst exit code, and the time taken on stderr.
 */
const AT = '2026-11-20 12:00:00';

let dir: string;
let repo: string;
let env: Record<string, string>;
let server: (TendedProcess & { url: string }) | null = null;

async function tended(args: string[]) {
  return tendedAt(args, env, AT).exited;
}

function put(path: string, text: string) {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-dir-'));
  repo = join(dir, 'repo');
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
      { ...githubObservation('acme/x', '2026-11-04', 'alive'), component: normaliseComponent('pypi', 'flask') },
    ],
    notary.seal,
  );
  await store.close();
  put('app/package.json', '{\n  "dependencies": {\n    "lodash": "^4",\n    "express": "^4"\n  }\n}\n');
  put('app/api/requirements.txt', 'flask>=3\n');
  put('app/LICENSE.txt', 'Permission is hereby granted, free of charge\n');
  // What a checkout holds but does not declare: an eol package in each would fail the gate if read.
  put('app/node_modules/old/package.json', '{"dependencies":{"old-thing":"1"}}');
  put('app/.gitignore', 'generated/\n');
  put('app/generated/package.json', '{"dependencies":{"old-thing":"1"}}');
  put('broken/composer.json', '{"require": {"acme/x": ');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('tended check DIR', () => {
  it(
    'reports each file in its own section, skips node_modules and what .gitignore ignores, and times the run',
    { timeout: 90_000 },
    async () => {
      const r = await tended(['check', join(repo, 'app')]);
      expect(r.code).toBe(1);
      const sections = r.out.split('\n').filter((l) => l.startsWith('== '));
      expect(sections).toEqual(['== api/requirements.txt', '== package.json']);
      // Every entry of both files is direct with no version: the table adds no tree columns for that.
      expect(r.out).toMatch(/archived\s+2026-11-01\s+\S+\s+npm:express\s+dependencies\.express/);
      const err = r.err.split('\n');
      expect(err[0]).toBe(
        'tended: the check fails: 1 of 3 components as of 2026-11-20 is in a state that fails it (by default abandoned, archived, deleted, eol; --fail-on chooses others, or none): npm:express archived (observed 2026-11-01, package.json dependencies.express).',
      );
      expect(err[1]).toMatch(/^checked 2 files, 3 components in \d+\.\d s$/);
    },
  );

  it(
    'answers JSON grouped by file; a file that cannot be parsed is reported alone, the others still run, the exit code is the worst',
    { timeout: 90_000 },
    async () => {
      const r = await tended(['check', repo, '--format', 'json', '--fail-on', 'none']);
      expect(r.code).toBe(2);
      const report = parsedAs<{ files: { file: string; format?: string; answer?: CheckAnswer; error?: string }[] }>(
        r.out,
      );
      expect(report.files.map((f) => [f.file, f.format ?? null, f.error === undefined])).toEqual([
        ['app/api/requirements.txt', 'requirements', true],
        ['app/package.json', 'package-json', true],
        ['broken/composer.json', null, false],
      ]);
      expect(report.files[2]!.error).toMatch(/^broken\/composer\.json: /);
      expect(r.err).toContain(`tended: ${report.files[2]!.error}\n`);
      expect(r.err).toMatch(/checked 2 files, 3 components in \d+\.\d s; 1 file not checked\n$/);
    },
  );

  it(
    '--scope direct still gates a file that does not say (requirements.txt), and refuses a word it does not know',
    { timeout: 90_000 },
    async () => {
      const r = await tended([
        'check',
        join(repo, 'app'),
        '--scope',
        'direct',
        '--fail-on',
        'alive',
        '--format',
        'sarif',
      ]);
      expect(r.code).toBe(1);
      // Files in path order: requirements.txt, which says no scope, counts as direct.
      expect(r.err).toContain(
        '(--fail-on alive; --scope direct): pypi:flask alive (observed 2026-11-04, api/requirements.txt line 1); npm:lodash alive (observed 2026-11-02, package.json dependencies.lodash).',
      );
      const log = parsedAs<{
        runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
      }>(r.out);
      expect(log.runs).toHaveLength(1);
      expect(new Set(log.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri))).toEqual(
        new Set(['api/requirements.txt', 'package.json']),
      );
      const wrong = await tended(['check', join(repo, 'app'), '--scope', 'transitive']);
      expect(wrong.code).toBe(2);
      expect(wrong.err).toBe('tended: --scope is direct or all (the default); got "transitive"\n');
    },
  );

  it(
    'with --url sends one request per file, and checks a file over the service’s limit only locally',
    { timeout: 120_000 },
    async () => {
      server = await serveAt(env, AT);
      // Over 4 MB of comments: a requirements file the service would refuse whole.
      put('app/requirements-big.txt', `${'# padding\n'.repeat(450_000)}flask\n`);
      try {
        const r = await tended(['check', join(repo, 'app'), '--url', server.url, '--format', 'markdown']);
        expect(r.code).toBe(2);
        expect(r.out).toContain('### package.json');
        expect(r.out).toContain('| archived | 2026-11-01 | npm:express | 4 | dependencies.express |');
        expect(r.err).toContain(
          'tended: requirements-big.txt is larger than one request to the service may be (4 MB); it is checked locally, without --url\n',
        );
        expect(r.err).toMatch(/checked 2 files, 3 components in \d+\.\d s; 1 file not checked\n$/);
      } finally {
        rmSync(join(repo, 'app', 'requirements-big.txt'));
      }
    },
  );
});
