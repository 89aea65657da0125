import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { verifyVerdict } from '../src/notary/verdict.js';
import { logNotary } from '../src/operations/deps.js';
import type { HeadAnswer } from '../src/operations/read-chain.js';
import type { EntityAnswer } from '../src/operations/read-entity.js';
import { keySetDocumentOf, verifyKeySetChain, type KeySetAnswer } from '../src/operations/verdict-keys.js';
import { openPostgresStore } from '../src/storage/postgres/open.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import type { Store } from '../src/storage/store.js';
import { jsonOf, type DetailAnswer } from './support/json.js';
import { githubObservation, postgresTestStore, sqliteTestStore, type TestStore } from './support/record.js';

/**
 * `tended signing rotate` end to end through the CLI: a new verdict key and a new checkpoint key;
 * everything signed before still verifies, every key stays published, on both backends.
 */
describe.each([
  ['sqlite', sqliteTestStore, (url: string) => openSqliteStore(url.slice('sqlite:'.length))],
  ['postgres', postgresTestStore, (url: string) => openPostgresStore(url, { max: 2 })],
] as const)('signing rotate on %s', (_backend, open, reopen) => {
  let t: TestStore;
  let dir: string;
  let env: Record<string, string>;
  const keyPath = () => join(dir, 'checkpoint-key.pem');

  const cli = async (args: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      env,
      stdout: { write: (s: string) => ((out += s), true) } as never,
      stderr: { write: (s: string) => ((err += s), true) } as never,
      openStore: (config) =>
        config.databaseUrl === t.url ? reopen(t.url) : openSqliteStore(config.databaseUrl.slice('sqlite:'.length)),
    });
    return { code, out, err };
  };
  /** Appends as a running service would: with whatever checkpoint key is at the path now. */
  const append = async (repo: string, date: string) => {
    const key = loadOrCreateSigningKey(keyPath());
    const store: Store = await reopen(t.url);
    await store.appendObservations(
      [githubObservation(repo, date, 'alive')],
      logNotary('tended.local/log/v1', key.privateKey, key.publicKey).seal,
    );
    await store.close();
  };
  const keySetOf = async () => {
    const store = await reopen(t.url);
    const sets = await store.keySets();
    await store.close();
    return sets;
  };

  beforeEach(async () => {
    t = await open();
    dir = mkdtempSync(join(tmpdir(), 'tended-rotate-'));
    env = { DATABASE_URL: t.url, TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem') };
    const key = loadOrCreateSigningKey(keyPath());
    await t.store.initialiseLog(logNotary('tended.local/log/v1', key.privateKey, key.publicKey).seal);
    await append('acme/one', '2026-01-01');
  });
  afterEach(async () => {
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rotates both keys, keeps the old ones published and on disk, and the whole log still verifies', async () => {
    const oldPem = readFileSync(keyPath(), 'utf8');
    const first = await cli(['signing', 'rotate']);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/verdict key set version 2 .* signed by /);
    expect(first.out).toMatch(/checkpoint key: tended\.local\/log\/v1\+[0-9a-f]{8}\+/);
    expect(readFileSync(keyPath(), 'utf8')).not.toBe(oldPem);
    const retiredFile = readdirSync(dir).find((f) => f.startsWith('checkpoint-key.pem.retired-'))!;
    expect(readFileSync(join(dir, retiredFile), 'utf8')).toBe(oldPem);

    await append('acme/two', '2026-01-02');
    expect((await cli(['signing', 'rotate'])).code).toBe(0);
    await append('acme/three', '2026-01-03');

    const sets = await keySetOf();
    expect(sets.map((s) => s.document.version)).toEqual([1, 2, 3]);
    expect(() => verifyKeySetChain(sets)).not.toThrow();
    const last = sets.at(-1)!.document;
    expect(last.keys.map((k) => k.status)).toEqual(['retired', 'retired', 'active']);
    expect(last.log.vkeys.map((k) => k.status)).toEqual(['retired', 'retired', 'active']);
    // Every key of every version is still in the last one: nothing published is ever removed.
    for (const s of sets)
      for (const k of s.document.keys) expect(last.keys.some((x) => x.kid === k.kid && x.x === k.x)).toBe(true);
    expect(readdirSync(join(dir, 'verdict-keys'))).toHaveLength(3);

    // Heads signed by three different checkpoint keys: the audit of the store accepts all of them.
    const verified = await cli(['verify']);
    expect(verified.code, verified.err).toBe(0);
    expect(verified.out).toMatch(/verified: 6 leaves .* as signed; \d+ heads chain and match the tree/);
    // Pinned to the first key alone, the newest checkpoint is refused: rotation is visible, not silent.
    const pinned = await cli(['verify', '--key', sets[0]!.document.log.vkeys[0]!.vkey]);
    expect(pinned.code).toBe(1);

    // Key-set leaves travel in an export and are accepted by import like any other leaf.
    const file = join(dir, 'export.jsonl');
    expect((await cli(['export', '--out', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8').match(/"_type":"tended\/keyset\/v1"/g)).toHaveLength(3);
    const source = env;
    env = {
      DATABASE_URL: `sqlite:${join(dir, 'copy', 'tended.db')}`,
      TENDED_SIGNING_KEY: join(dir, 'copy', 'key.pem'),
    };
    const imported = await cli(['import', file]);
    env = source;
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/^imported 6 leaves/);
  });

  it('a verdict issued before a rotation still verifies offline against the rotated key set', async () => {
    const { build } = await import('../src/http/app.js');
    const { VerdictService } = await import('../src/operations/verdict.js');
    const { verdictFiles } = await import('../src/cli/signing.js');
    const { loadConfig } = await import('../src/config/config.js');
    const { ensureKeySet } = await import('../src/operations/verdict-keys.js');
    const serveOnce = async () => {
      const key = loadOrCreateSigningKey(keyPath());
      const store = await reopen(t.url);
      const published = (await store.keySets()).flatMap((k) => k.document.log.vkeys.map((v) => v.vkey));
      const deps = {
        store,
        notary: logNotary('tended.local/log/v1', key.privateKey, key.publicKey, published),
        clock: { now: () => new Date() },
      };
      const files = verdictFiles(loadConfig(env));
      await ensureKeySet(deps, files);
      const app = build({
        ...deps,
        sources: undefined as never,
        verdicts: new VerdictService(deps, files),
        logError: (e) => console.error(e),
      });
      const answer = await jsonOf<EntityAnswer>(await app.request('/api/v1/entity/acme/one'));
      const keySet = await jsonOf<KeySetAnswer>(await app.request('/.well-known/service-verdict-keys.json'));
      const head = await jsonOf<HeadAnswer>(await app.request('/api/chain/head'));
      const first = await app.request('/.well-known/service-verdict-keys.json?version=1');
      const next = await app.request(`/.well-known/service-verdict-keys.json?version=${keySet.version + 1}`);
      const bad = await app.request('/.well-known/service-verdict-keys.json?version=0');
      await store.close();
      return {
        answer,
        keySet,
        head,
        first: await jsonOf<KeySetAnswer>(first),
        next: { status: next.status, body: await jsonOf<DetailAnswer>(next) },
        bad: bad.status,
      };
    };
    const before = await serveOnce();
    expect(verifyVerdict(before.answer.verdict, before.keySet).predicate.state).toBe(before.answer.state);
    expect((await cli(['signing', 'rotate'])).code).toBe(0);
    const after = await serveOnce();
    expect(after.head.verifier_keys).toHaveLength(2);
    expect(after.head.verifier_key).toBe(after.head.verifier_keys[0]);
    expect(verifyVerdict(before.answer.verdict, after.keySet).keyid).toBe(before.keySet.keys[0]!.kid);
    expect(verifyVerdict(after.answer.verdict, after.keySet).keyid).toBe(after.keySet.keys[1]!.kid);

    // A client that pinned version 1 fetches it again by number and walks to the newest.
    expect(after.first).toEqual(before.keySet);
    expect(() =>
      verifyKeySetChain(
        [after.first, after.keySet].map((k) => ({
          document: keySetDocumentOf({ ...k }) as never,
          envelope: k.signature,
        })),
      ),
    ).not.toThrow();
    expect(after.next.status).toBe(404);
    expect(after.next.body.detail).toBe('No verdict key set version 3 was published; versions 1 to 2 are.');
    expect(after.bad).toBe(422);
  });
});
