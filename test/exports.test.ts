import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { observationLeafRecord } from '../src/domain/observation.js';
import { build } from '../src/http/app.js';
import { encodeLeaf } from '../src/notary/leaf.js';
import { runCli } from '../src/cli/run.js';
import { writeDailyExports, type DumpListing } from '../src/operations/daily-exports.js';
import { exportLog, importLog, type ExportHeader } from '../src/operations/transfer-log.js';
import type { Store } from '../src/storage/store.js';
import {
  githubObservation,
  postgresTestStore,
  recordDeps,
  sqliteTestStore,
  testNotary,
  type TestStore,
} from './support/record.js';
import { jsonOf, parsedAs } from './support/json.js';

/** Leaves with a chosen logged_at, appended in batches (one head per batch), as an import does. */
async function appendAt(
  store: Store,
  seal: ReturnType<typeof testNotary>['seal'],
  batch: { repo: string; date: string; loggedAt: string }[],
) {
  await store.importLeaves(
    batch.map(({ repo, date, loggedAt }) => {
      const observation = githubObservation(repo, date, 'alive');
      return { bytes: encodeLeaf(observationLeafRecord(observation, loggedAt)), logged_at: loggedAt, observation };
    }),
    seal,
  );
}

/** Runs the CLI in process; verify --file needs nothing but the file and the key. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await runCli(args, {
    openStore: () => Promise.reject(new Error('no store')),
    env: { TENDED_OBSERVER: 'off', ...env },
    stdout,
    stderr,
  });
  return { code, out, err };
}

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('daily exports on %s', (_backend, open) => {
  let t: TestStore;
  let deps: ReturnType<typeof recordDeps>;
  let dir: string;

  beforeEach(async () => {
    t = await open();
    deps = recordDeps(t.store);
    await t.store.initialiseLog(deps.notary.seal);
    dir = mkdtempSync(join(tmpdir(), 'tended-dumps-'));
    // Day one in two batches, then a batch that crosses midnight (so no head is sealed at the end
    // of day one), then day two, then day three, still open.
    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/a', date: '2025-03-01', loggedAt: '2025-03-01T06:00:01.000Z' },
      { repo: 'acme/b', date: '2025-03-01', loggedAt: '2025-03-01T06:00:02.000Z' },
    ]);
    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/c', date: '2025-03-01', loggedAt: '2025-03-01T12:00:00.000Z' },
    ]);
    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/d', date: '2025-03-01', loggedAt: '2025-03-01T23:59:59.000Z' },
      { repo: 'acme/e', date: '2025-03-02', loggedAt: '2025-03-02T00:00:01.000Z' },
    ]);
    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/a', date: '2025-03-02', loggedAt: '2025-03-02T06:00:00.000Z' },
      { repo: 'acme/b', date: '2025-03-02', loggedAt: '2025-03-02T06:00:01.000Z' },
    ]);
    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/a', date: '2025-03-03', loggedAt: '2025-03-03T06:00:00.000Z' },
    ]);
  });
  afterEach(async () => {
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes one file per finished UTC day, each verifying offline on its own with the pinned key', async () => {
    const outcomes = await writeDailyExports(deps, dir, { partial: false });
    expect(outcomes.map((o) => [o.name, o.start, o.tree_size, o.outcome])).toEqual([
      ['tended-2025-03-01.jsonl', 0, 4, 'written'],
      ['tended-2025-03-02.jsonl', 4, 7, 'written'],
      ['tended-2025-03-03.partial.jsonl', 7, 8, 'open'],
    ]);
    expect(readdirSync(dir).sort()).toEqual(['tended-2025-03-01.jsonl', 'tended-2025-03-02.jsonl']);
    const day1 = readFileSync(join(dir, 'tended-2025-03-01.jsonl'), 'utf8').trimEnd().split('\n');
    const header = parsedAs<ExportHeader>(day1[0]!);
    expect(header).toMatchObject({
      start: 0,
      tree_size: 4,
      date: '2025-03-01',
      partial: false,
      license: 'CC-BY-4.0',
      origin: deps.notary.origin,
    });
    // No head was sealed at size 4: the checkpoint is the next head's, with a consistency proof.
    expect(header.consistency!.length).toBeGreaterThan(0);
    expect(day1).toHaveLength(5);
    const day2Header = parsedAs<ExportHeader>(
      readFileSync(join(dir, 'tended-2025-03-02.jsonl'), 'utf8').split('\n')[0]!,
    );
    expect(day2Header.frontier).toHaveLength(1); // the right edge of a tree of 4 leaves is one node
    for (const name of ['tended-2025-03-01.jsonl', 'tended-2025-03-02.jsonl']) {
      const verified = await cli(['verify', '--file', join(dir, name), '--key', deps.notary.vkey]);
      expect(verified.err).toMatch(/^verify: \d+ leaves in \d+\.\d s \([\d,]+\/s\)\n$/);
      expect(verified.code).toBe(0);
      expect(verified.out).toMatch(/^verified: leaves \d+ to \d+ of /);
    }
  });

  it('never rewrites a finished day; writes the open day only with --partial, and replaces it once the day is over', async () => {
    await writeDailyExports(deps, dir, { partial: false });
    const before = statSync(join(dir, 'tended-2025-03-01.jsonl'));
    const again = await writeDailyExports(deps, dir, { partial: true });
    expect(again.map((o) => o.outcome)).toEqual(['kept', 'kept', 'written']);
    expect(statSync(join(dir, 'tended-2025-03-01.jsonl')).mtimeMs).toBe(before.mtimeMs);
    const partial = join(dir, 'tended-2025-03-03.partial.jsonl');
    expect(JSON.parse(readFileSync(partial, 'utf8').split('\n')[0]!)).toMatchObject({
      partial: true,
      start: 7,
      tree_size: 8,
    });
    expect((await cli(['verify', '--file', partial, '--key', deps.notary.vkey])).code).toBe(0);

    await appendAt(t.store, deps.notary.seal, [
      { repo: 'acme/b', date: '2025-03-04', loggedAt: '2025-03-04T06:00:00.000Z' },
    ]);
    const later = await writeDailyExports(deps, dir, { partial: false });
    expect(later.map((o) => [o.name, o.outcome])).toEqual([
      ['tended-2025-03-01.jsonl', 'kept'],
      ['tended-2025-03-02.jsonl', 'kept'],
      ['tended-2025-03-03.jsonl', 'written'],
      ['tended-2025-03-04.partial.jsonl', 'open'],
    ]);
    expect(readdirSync(dir).sort()).toEqual([
      'tended-2025-03-01.jsonl',
      'tended-2025-03-02.jsonl',
      'tended-2025-03-03.jsonl',
    ]);
  });

  it('rejects a dump whose leaf, frontier or checkpoint key was tampered with', async () => {
    await writeDailyExports(deps, dir, { partial: false });
    const lines = readFileSync(join(dir, 'tended-2025-03-02.jsonl'), 'utf8').trimEnd().split('\n');
    const write = (name: string, content: string[]) => {
      writeFileSync(join(dir, name), `${content.join('\n')}\n`);
      return join(dir, name);
    };
    const leaf = write('leaf.jsonl', [lines[0]!, lines[1]!.replace('acme/e', 'acme/x'), ...lines.slice(2)]);
    const header = parsedAs<ExportHeader>(lines[0]!);
    const frontier = write('frontier.jsonl', [
      JSON.stringify({ ...header, frontier: [Buffer.alloc(32, 7).toString('base64')] }),
      ...lines.slice(1),
    ]);
    const dropped = write('dropped.jsonl', lines.slice(0, -1));
    for (const file of [leaf, frontier, dropped]) {
      const res = await cli(['verify', '--file', file, '--key', deps.notary.vkey]);
      expect(res.code, file).toBe(1);
      expect(res.err).toContain('does NOT verify');
    }
    const otherKey = await cli([
      'verify',
      '--file',
      join(dir, 'tended-2025-03-02.jsonl'),
      '--key',
      testNotary(deps.notary.origin).vkey,
    ]);
    expect(otherKey.code).toBe(1);
  });

  it('a full export still imports to the same root, and a --since export verifies on its own', async () => {
    const lines: string[] = [];
    for await (const line of exportLog(deps)) lines.push(line);
    const target = await open();
    try {
      const copy = { ...recordDeps(target.store), notary: deps.notary };
      await target.store.initialiseLog(copy.notary.seal);
      const report = await importLog(
        copy,
        (async function* () {
          await Promise.resolve();
          yield* lines;
        })(),
      );
      expect(report.root_hash).toBe((await t.store.latestHead())!.root_hash);
      expect((await target.store.latestHead())!.root_hash).toBe(report.root_hash);
    } finally {
      await target.dispose();
    }
    const since: string[] = [];
    for await (const line of exportLog(deps, '2025-03-02')) since.push(line);
    expect(JSON.parse(since[0]!)).toMatchObject({ start: 4, tree_size: 8 });
    writeFileSync(join(dir, 'since.jsonl'), `${since.join('\n')}\n`);
    expect((await cli(['verify', '--file', join(dir, 'since.jsonl'), '--key', deps.notary.vkey])).code).toBe(0);
  });

  it('GET /api/v1/exports lists the dumps; each is served with its hash as ETag; anything else is a 404', async () => {
    await writeDailyExports(deps, dir, { partial: true });
    writeFileSync(join(dir, 'secret.txt'), 'not a dump');
    writeFileSync(join(dir, '.tended-2025-03-09.jsonl.abc.tmp'), 'half a dump');
    const app = build({
      ...deps,
      sources: undefined as never,
      logError: (e) => {
        throw e;
      },
      exportDir: dir,
      publicUrl: 'https://tended.example',
    });
    const list = await app.request('/api/v1/exports');
    expect(list.status).toBe(200);
    expect(list.headers.get('link')).toContain('rel="license"');
    const body = await jsonOf<{ exports: (DumpListing & { url: string })[]; license: string }>(list);
    expect(body.license).toBe('CC-BY-4.0');
    expect(body.exports.map((e) => [e.name, e.date, e.partial, e.first_leaf, e.last_leaf, e.tree_size])).toEqual([
      ['tended-2025-03-01.jsonl', '2025-03-01', false, 0, 3, 4],
      ['tended-2025-03-02.jsonl', '2025-03-02', false, 4, 6, 7],
      ['tended-2025-03-03.partial.jsonl', '2025-03-03', true, 7, 7, 8],
    ]);
    const first = body.exports[0]!;
    const bytes = readFileSync(join(dir, first.name));
    expect(first).toMatchObject({
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      url: `https://tended.example/api/v1/exports/${first.name}`,
    });

    const file = await app.request(`/api/v1/exports/${first.name}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/jsonl');
    expect(file.headers.get('etag')).toBe(`"${first.sha256}"`);
    expect(file.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(
      (await app.request(`/api/v1/exports/${first.name}`, { headers: { 'if-none-match': `"${first.sha256}"` } }))
        .status,
    ).toBe(304);
    expect((await app.request('/api/v1/exports/tended-2025-03-03.partial.jsonl')).headers.get('cache-control')).toBe(
      'no-cache',
    );

    for (const path of [
      'tended-2024-01-01.jsonl',
      'secret.txt',
      '.tended-2025-03-09.jsonl.abc.tmp',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '..%2Fsecret.txt',
      'tended-2025-03-01.jsonl%2F..%2F..%2Fsecret.txt',
      '%2e%2e%2fsecret.txt',
    ]) {
      const res = await app.request(`/api/v1/exports/${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toEqual(expect.any(String));
    }
    const doc = (await (await app.request('/api/v1/docs')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/exports', '/api/v1/exports/{name}']));
  });
});
