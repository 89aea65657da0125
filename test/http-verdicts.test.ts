import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run.js';
import { verdictKeyFiles } from '../src/config/signing-key.js';
import { build } from '../src/http/app.js';
import { publicJwkOf } from '../src/notary/key-set.js';
import type { DsseEnvelope } from '../src/notary/dsse.js';
import {
  signVerdict,
  verifyVerdict,
  type InclusionProof,
  type Verdict,
  type VerdictPredicate,
} from '../src/notary/verdict.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import type { EntityAnswer } from '../src/operations/read-entity.js';
import {
  ensureKeySet,
  rotateVerdictKey,
  verifyKeySetChain,
  type KeySetAnswer,
  type VerdictKeyFiles,
} from '../src/operations/verdict-keys.js';
import { VerdictService } from '../src/operations/verdict.js';
import { startHarness, type Harness } from '../src/simulator/harness.js';
import { demoScenario } from '../src/simulator/demo.js';
import type { Store } from '../src/storage/store.js';
import { jsonOf, parsedAs, type DetailAnswer, type Json } from './support/json.js';
import { stringMatching } from './support/matchers.js';
import type { ComponentToolAnswer, RpcAnswer, ToolCallResult } from './support/mcp-answers.js';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';

/** The verdict on an observation the record holds: its leaf and inclusion proof are there. */
interface HeldVerdict extends Verdict {
  leaf: string;
  inclusion_proof: InclusionProof;
}
/** An answer on a held component read with verdicts on (a test that expects no verdict reads the plain type). */
type Signed<T> = Omit<T, 'verdict'> & { verdict: HeldVerdict };
/** The statement inside a verdict envelope, as far as these tests read or edit it. */
interface Statement {
  predicate: VerdictPredicate;
}
/** What verifyWithNodeCryptoAlone reads of a key set: its keys' thumbprint members. */
interface ThumbprintKeys {
  keys: { kid: string; crv: string; kty: string; x: string }[];
}

/**
 * A verdict checked with node:crypto alone, as an agent without Tended's code would: rebuild the
 * DSSE PAE by hand, find the key by kid in the published JWK Set, recompute its RFC 7638 thumbprint,
 * and verify the Ed25519 signature. Returns the statement, or null when anything fails.
 */
function verifyWithNodeCryptoAlone(envelope: DsseEnvelope, keySet: ThumbprintKeys): Json {
  if (envelope.payloadType !== 'application/vnd.in-toto+json') return null;
  const body = Buffer.from(envelope.payload, 'base64');
  const type = Buffer.from(envelope.payloadType, 'utf8');
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} `), type, Buffer.from(` ${body.length} `), body]);
  for (const { keyid, sig } of envelope.signatures) {
    const jwk = keySet.keys.find((k) => k.kid === keyid);
    if (!jwk) continue;
    const thumbprint = createHash('sha256')
      .update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`)
      .digest('base64url');
    if (thumbprint !== jwk.kid) continue;
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    if (verify(null, pae, key, Buffer.from(sig, 'base64'))) return parsedAs(body.toString('utf8'));
  }
  return null;
}

const tamper = (verdict: Verdict, edit: (statement: Statement) => void): Verdict => {
  const statement = parsedAs<Statement>(Buffer.from(verdict.envelope.payload, 'base64').toString());
  edit(statement);
  return {
    ...verdict,
    envelope: { ...verdict.envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64') },
  };
};

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('verdict envelopes and the key set, on %s', (backend, open) => {
  let t: TestStore;
  let harness: Harness;
  let dir: string;
  let files: VerdictKeyFiles;
  let deps: ReturnType<typeof recordDeps> & { sources: Harness['sources'] };

  const appOn = (store: Store = t.store) => {
    const d = { ...deps, store };
    return build({ ...d, verdicts: new VerdictService(d, files), logError: (e) => console.error(e) });
  };
  const get = async <T = Json>(app: ReturnType<typeof build>, path: string) => {
    const res = await app.request(path);
    return { status: res.status, type: res.headers.get('content-type'), body: await jsonOf<T>(res) };
  };
  const keySetOf = async (app: ReturnType<typeof build>) =>
    (await get<KeySetAnswer>(app, '/.well-known/service-verdict-keys.json')).body;
  const signedEntity = async (app: ReturnType<typeof build>, path: string) =>
    (await get<Signed<EntityAnswer>>(app, path)).body;

  /** `tended ARGS` in process, offline: verify-verdict must never open a store. */
  const run = async (args: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(args, {
      env: { DATABASE_URL: `sqlite:${join(dir, 'unused.db')}` },
      stdout: { write: (s: string) => ((out += s), true) } as never,
      stderr: { write: (s: string) => ((err += s), true) } as never,
      openStore: () => Promise.reject(new Error('verify-verdict must not open a store')),
    });
    return { code, out, err };
  };
  const save = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  beforeEach(async () => {
    t = await open();
    harness = await startHarness({ scenario: demoScenario(), today: '2026-11-22' });
    dir = mkdtempSync(join(tmpdir(), 'tended-verdicts-'));
    files = verdictKeyFiles(join(dir, 'verdict-keys'), (k) => publicJwkOf(k).kid);
    deps = { ...recordDeps(t.store, '2026-11-22T12:00:00Z'), sources: harness.sources };
    await t.store.initialiseLog(deps.notary.seal);
    await t.store.appendObservations(
      [
        githubObservation('expressjs/express', '2026-11-01', 'alive'),
        githubObservation('expressjs/express', '2026-11-20', 'alive'),
        githubObservation('acme/old', '2024-01-01', 'abandoned'),
      ],
      deps.notary.seal,
    );
    await ensureKeySet(deps, files);
  });
  afterEach(async () => {
    await harness.close();
    await t.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('off: the key route is 404 with a sentence, and answers carry no verdict', async () => {
    const app = build({ ...deps, logError: () => {} });
    const keys = await get<DetailAnswer>(app, '/.well-known/service-verdict-keys.json');
    expect(keys.status).toBe(404);
    expect(keys.body.detail).toMatch(/TENDED_VERDICTS/);
    expect((await get<EntityAnswer>(app, '/api/v1/entity/expressjs/express')).body.verdict).toBeUndefined();
  });

  it('on: publishes a non-empty JWK Set whose kids are thumbprints, signed, with its digest in the log', async () => {
    const app = appOn();
    const { status, type, body } = await get<KeySetAnswer>(app, '/.well-known/service-verdict-keys.json');
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    expect(body.version).toBe(1);
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'Ed25519',
      use: 'sig',
      status: 'active',
      valid_until: null,
    });
    expect(body.log).toEqual({
      origin: deps.notary.origin,
      vkeys: [expect.objectContaining({ vkey: deps.notary.vkey, status: 'active' })],
    });
    const { signature, leaf_index, digest, ...document } = body;
    expect(() => verifyKeySetChain([{ document, envelope: signature }])).not.toThrow();
    const leaf = await app.request(`/api/chain/entries/${leaf_index}`);
    const record = parsedAs(await leaf.text());
    expect(record).toMatchObject({ _type: 'tended/keyset/v1', version: 1, sha256: digest });
  });

  it('an entity answer carries a verdict that verifies with node:crypto alone, and offline with everything it carries', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const answer = await signedEntity(app, '/api/v1/entity/expressjs/express?as_of=2026-11-21');
    const statement = verifyWithNodeCryptoAlone(answer.verdict.envelope, keySet);
    expect(statement).not.toBeNull();
    const leafBytes = Buffer.from(answer.verdict.leaf, 'base64');
    const served = Buffer.from(await (await app.request(`/api/chain/entries/${answer.leaf_index}`)).arrayBuffer());
    expect(leafBytes.equals(served)).toBe(true);
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [
        { name: 'pkg:github/expressjs/express', digest: { sha256: createHash('sha256').update(served).digest('hex') } },
      ],
      predicate: {
        purl: answer.purl,
        as_of: '2026-11-21',
        state: answer.state,
        observation_date: '2026-11-20',
        source: answer.source,
        censoring_status: 'interval-censored',
        leaf_index: answer.leaf_index,
        checkpoint: { origin: deps.notary.origin, tree_size: answer.verdict.inclusion_proof.tree_size },
      },
    });
    expect(verifyVerdict(answer.verdict, keySet).predicate.state).toBe('alive');
  });

  it('refuses a tampered payload, a wrong payloadType, an unknown key, and a proof for another tree', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const { verdict } = await signedEntity(app, '/api/v1/entity/acme/old');
    expect(verifyVerdict(verdict, keySet).predicate.state).toBe('unknown-stale');

    const forged = tamper(verdict, (s) => (s.predicate.state = 'alive'));
    expect(verifyWithNodeCryptoAlone(forged.envelope, keySet)).toBeNull();
    expect(() => verifyVerdict(forged, keySet)).toThrow(/payload or its type was changed/);

    const retyped = { ...verdict, envelope: { ...verdict.envelope, payloadType: 'application/json' } };
    expect(verifyWithNodeCryptoAlone(retyped.envelope, keySet)).toBeNull();
    expect(() => verifyVerdict(retyped, keySet)).toThrow(/payload or its type was changed/);

    const otherDir = mkdtempSync(join(tmpdir(), 'tended-other-'));
    const stranger = verdictKeyFiles(otherDir, (k) => publicJwkOf(k).kid).create();
    const strangerSet = {
      ...keySet,
      keys: [
        {
          ...publicJwkOf(stranger.privateKey),
          alg: 'Ed25519',
          use: 'sig',
          status: 'active',
          valid_from: '2026-01-01T00:00:00Z',
          valid_until: null,
        },
      ],
    };
    rmSync(otherDir, { recursive: true, force: true });
    expect(verifyWithNodeCryptoAlone(verdict.envelope, strangerSet)).toBeNull();
    expect(() => verifyVerdict(verdict, strangerSet)).toThrow(/no signature is by a key in the key set/);

    const badProof = {
      ...verdict,
      inclusion_proof: {
        ...verdict.inclusion_proof,
        hashes: verdict.inclusion_proof.hashes.map(() => Buffer.alloc(32).toString('base64')),
      },
    };
    expect(() => verifyVerdict(badProof, keySet)).toThrow(/not included/);
    const otherLeaf = { ...verdict, leaf: Buffer.from('{}').toString('base64') };
    expect(() => verifyVerdict(otherLeaf, keySet)).toThrow(/not the ones the statement names/);
  });

  it('each manifest result carries its own verdict, an unobserved component included; signed once per head', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const post = async () => {
      const res = await app.request('/api/v1/manifest', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          components: [
            { name: 'expressjs/express', kind: 'github' },
            { name: 'left-pad', kind: 'npm' },
          ],
        }),
      });
      return await jsonOf<CheckAnswer>(res);
    };
    const answer = await post();
    expect(answer.results).toHaveLength(2);
    for (const result of answer.results) {
      expect(verifyWithNodeCryptoAlone(result.verdict!.envelope, keySet)).not.toBeNull();
      expect(verifyVerdict(result.verdict, keySet).predicate.state).toBe(result.state);
    }
    expect(answer.results[1]!.verdict).toMatchObject({ leaf: null, inclusion_proof: null });
    // The same answer under the same head: the same envelope, not a fresh signature.
    expect((await post()).results[0]!.verdict!.envelope).toEqual(answer.results[0]!.verdict!.envelope);
    const entity = async () => (await signedEntity(app, '/api/v1/entity/expressjs/express')).verdict;
    const before = await entity();
    expect(await entity()).toEqual(before);
    await t.store.appendObservations([githubObservation('acme/other', '2026-11-22', 'alive')], deps.notary.seal);
    const after = await entity();
    expect(after.inclusion_proof.tree_size).toBe(before.inclusion_proof.tree_size + 1);
    expect(verifyVerdict(after, keySet).predicate.checkpoint.tree_size).toBe(after.inclusion_proof.tree_size);
  });

  it('each SBOM result carries its own verdict, as the manifest results do', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const bom = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      metadata: { component: { name: 'my-app', purl: 'pkg:npm/my-app@1.0.0' } },
      components: [
        { 'bom-ref': 'express', name: 'express', purl: 'pkg:github/expressjs/express@v5' },
        { 'bom-ref': 'old', name: 'old', purl: 'pkg:github/acme/old@v1' },
        { 'bom-ref': 'left-pad', name: 'left-pad', purl: 'pkg:npm/left-pad@1.3.0' },
      ],
    };
    const res = await app.request('/api/v1/sbom', {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.cyclonedx+json' },
      body: JSON.stringify(bom),
    });
    expect(res.status).toBe(200);
    const answer = await jsonOf<CheckAnswer>(res);
    expect(answer.results.map((r) => r.state)).toEqual(['alive', 'unknown-stale', 'not_observed']);
    for (const result of answer.results) {
      expect(verifyWithNodeCryptoAlone(result.verdict!.envelope, keySet)).not.toBeNull();
      const { predicate } = verifyVerdict(result.verdict, keySet);
      expect(predicate).toMatchObject({ purl: result.purl, state: result.state, leaf_index: result.leaf_index });
    }
    // Every verdict of one answer names one checkpoint.
    expect(new Set(answer.results.map((r) => r.verdict!.checkpoint)).size).toBe(1);
    // And the saved SBOM answer verifies offline as a whole.
    const verified = await run([
      'verify-verdict',
      save('sbom-answer.json', answer),
      '--keys',
      save('sbom-keys.json', keySet),
    ]);
    expect(verified.code, verified.err).toBe(0);
    expect(verified.out.trim().split('\n')).toHaveLength(3);
  });

  it('the MCP tools carry the verdict the API would (check_component, check_manifest, check_sbom, get_series); off, none', async () => {
    const call = async <T>(app: ReturnType<typeof build>, name: string, args: object) => {
      const res = await app.request('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const body = await jsonOf<RpcAnswer<ToolCallResult<T>>>(res);
      expect(body.result?.isError, JSON.stringify(body)).toBeFalsy();
      expect(parsedAs(body.result!.content[0]!.text)).toEqual(body.result!.structuredContent);
      return body.result!.structuredContent;
    };
    const app = appOn();
    const keySet = await keySetOf(app);
    const component = await call<ComponentToolAnswer>(app, 'check_component', {
      kind: 'github',
      name: 'expressjs/express',
    });
    expect(verifyVerdict(component.verdict, keySet).predicate).toMatchObject({
      state: component.state,
      leaf_index: component.leaf_index,
    });
    expect(
      (await run(['verify-verdict', save('mcp-component.json', component), '--keys', save('mcp-keys.json', keySet)]))
        .code,
    ).toBe(0);
    const manifest = await call<CheckAnswer>(app, 'check_manifest', {
      content: 'on: push\njobs:\n  b:\n    runs-on: x\n    steps:\n      - uses: expressjs/express@v5\n',
      filename: 'ci.yml',
    });
    expect(verifyVerdict(manifest.results[0]!.verdict, keySet).predicate.state).toBe('alive');
    const sbom = await call<CheckAnswer>(app, 'check_sbom', {
      content: JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        components: [{ name: 'old', purl: 'pkg:github/acme/old@v1' }],
      }),
    });
    expect(verifyVerdict(sbom.results[0]!.verdict, keySet).predicate.state).toBe('unknown-stale');
    const series = await call<Signed<EntityAnswer>>(app, 'get_series', {
      owner: 'expressjs',
      repo: 'express',
      as_of: '2026-11-21',
    });
    expect(verifyVerdict(series.verdict, keySet).predicate).toMatchObject({
      as_of: '2026-11-21',
      observation_date: '2026-11-20',
      state: series.state,
    });
    // The same facts as the HTTP answer, signed under the same head.
    const http = await signedEntity(app, '/api/v1/entity/expressjs/express?as_of=2026-11-21');
    expect(series.verdict.checkpoint).toBe(http.verdict.checkpoint);
    expect(series.verdict.inclusion_proof).toEqual(http.verdict.inclusion_proof);

    const off = build({ ...deps, logError: () => {} });
    expect(
      (await call<ComponentToolAnswer>(off, 'check_component', { kind: 'github', name: 'expressjs/express' })).verdict,
    ).toBeUndefined();
    expect(
      (await call<EntityAnswer>(off, 'get_series', { owner: 'expressjs', repo: 'express' })).verdict,
    ).toBeUndefined();
  });

  it('survives a rotation and a restart: old verdicts verify with the retired key, new ones use the new key; nothing is removed', async () => {
    const app = appOn();
    const v1 = await keySetOf(app);
    const oldVerdict = (await signedEntity(app, '/api/v1/entity/expressjs/express')).verdict;
    const oldKid = v1.keys[0]!.kid;

    deps.clock.set('2026-11-22T13:00:00Z');
    const { next } = await rotateVerdictKey(deps, files);
    expect(next.document.version).toBe(2);
    expect(readdirSync(files.dir)).toHaveLength(2);

    // A restart: a new connection and a new service, reading everything from the store and the files.
    deps.clock.set('2026-11-22T13:00:05Z');
    const reopened = await t.reopen();
    const restarted = appOn(reopened);
    const v2 = await keySetOf(restarted);
    expect(v2.version).toBe(2);
    expect(v2.keys.map((k) => [k.kid, k.status, k.valid_until])).toEqual([
      [oldKid, 'retired', '2026-11-22T13:00:00Z'],
      [expect.not.stringMatching(oldKid), 'active', null],
    ]);
    const newKid = v2.keys[1]!.kid;
    // Version 2 is signed by the key of version 1, so an agent pinning v1 can walk to v2 offline.
    const strip = ({ signature, leaf_index: _leaf, digest: _digest, ...document }: KeySetAnswer) => ({
      document,
      envelope: signature,
    });
    expect(() => verifyKeySetChain([strip(v1), strip(v2)])).not.toThrow();
    expect(strip(v2).envelope.signatures[0]!.keyid).toBe(oldKid);

    expect(verifyWithNodeCryptoAlone(oldVerdict.envelope, v2)).not.toBeNull();
    expect(verifyVerdict(oldVerdict, v2).keyid).toBe(oldKid);
    const newVerdict = (await signedEntity(restarted, '/api/v1/entity/expressjs/express')).verdict;
    expect(newVerdict.envelope.signatures[0]!.keyid).toBe(newKid);
    expect(verifyVerdict(newVerdict, v2).keyid).toBe(newKid);
    // The service that was running when the rotation happened moves to the new key too.
    expect((await signedEntity(app, '/api/v1/entity/expressjs/express')).verdict.envelope.signatures[0]!.keyid).toBe(
      newKid,
    );
    // The retired key cannot vouch for a verdict issued after its window closed, even with a good signature.
    const statement = parsedAs<Statement>(Buffer.from(newVerdict.envelope.payload, 'base64').toString());
    const late = signVerdict(
      {
        predicate: statement.predicate,
        checkpoint: newVerdict.checkpoint,
        leaf: Buffer.from(newVerdict.leaf, 'base64'),
        inclusion_proof: newVerdict.inclusion_proof,
      },
      { kid: oldKid, privateKey: files.load(oldKid)! },
    );
    expect(verifyWithNodeCryptoAlone(late.envelope, v2)).not.toBeNull();
    expect(() => verifyVerdict(late, v2)).toThrow(/was not valid at 2026-11-22T13:00:05Z/);
  });

  it('`tended verify-verdict` checks a saved answer against a saved key set offline: exit 0 valid, 1 with a sentence', async () => {
    const app = appOn();
    const keysFile = join(dir, 'keys.json');
    const answerFile = join(dir, 'answer.json');
    const forgedFile = join(dir, 'forged.json');
    writeFileSync(keysFile, JSON.stringify(await keySetOf(app)));
    const answer = await signedEntity(app, '/api/v1/entity/expressjs/express');
    writeFileSync(answerFile, JSON.stringify(answer));
    writeFileSync(
      forgedFile,
      JSON.stringify({ verdict: tamper(answer.verdict, (s) => (s.predicate.state = 'abandoned')) }),
    );
    const ok = await run(['verify-verdict', answerFile, '--keys', keysFile]);
    expect(ok).toMatchObject({
      code: 0,
      out: stringMatching(/^valid: pkg:github\/expressjs\/express was alive/),
    });
    const bad = await run(['verify-verdict', forgedFile, '--keys', keysFile]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/not valid: the envelope does not verify/);
    // An edited answer beside its untouched verdict: the verdict alone verifies, the answer does not.
    const editedFile = join(dir, 'edited.json');
    writeFileSync(editedFile, JSON.stringify({ ...answer, state: 'abandoned' }));
    const edited = await run(['verify-verdict', editedFile, '--keys', keysFile]);
    expect(edited.code).toBe(1);
    expect(edited.err).toMatch(/its state is "abandoned", but the signed verdict says "alive"/);
    expect((await run(['verify-verdict', answerFile])).code).toBe(2);
  });

  it('`tended verify-verdict` with the pinned version 1 and later versions verifies a verdict signed after a rotation, as a chain', async () => {
    const app = appOn();
    const v1 = await keySetOf(app);
    deps.clock.set('2026-11-22T13:00:00Z');
    await rotateVerdictKey(deps, files);
    deps.clock.set('2026-11-22T13:00:05Z');
    const v2 = await keySetOf(app);
    const answer = await signedEntity(app, '/api/v1/entity/expressjs/express');
    const answerFile = save('after-rotation.json', answer);
    const pinned = save('keys-v1.json', v1);

    // Version 1 alone does not know the new key: exactly the case the chain is for.
    const alone = await run(['verify-verdict', answerFile, '--keys', pinned]);
    expect(alone.code).toBe(1);
    expect(alone.err).toMatch(/no signature is by a key in the key set/);

    const chained = await run(['verify-verdict', answerFile, '--keys', pinned, '--keys', save('keys-v2.json', v2)]);
    expect(chained.err).toBe('');
    expect(chained.code).toBe(0);
    expect(chained.out).toMatch(/^key set: versions 1 to 2 chain from the pinned version 1/);
    expect(chained.out).toMatch(/\nvalid: pkg:github\/expressjs\/express was alive/);
    // One file holding the versions as a list, in any order, does the same.
    expect((await run(['verify-verdict', answerFile, '--keys', save('keys-all.json', [v2, v1])])).code).toBe(0);

    // A version 2 the pinned key did not sign (here: one with an extra key slipped in) is refused.
    const stranger = verdictKeyFiles(join(dir, 'stranger'), (k) => publicJwkOf(k).kid).create();
    const slipped = {
      ...v2,
      keys: [
        ...v2.keys,
        {
          ...publicJwkOf(stranger.privateKey),
          alg: 'Ed25519',
          use: 'sig',
          status: 'active',
          valid_from: '2026-01-01T00:00:00Z',
          valid_until: null,
        },
      ],
    };
    const forged = await run([
      'verify-verdict',
      answerFile,
      '--keys',
      pinned,
      '--keys',
      save('keys-forged.json', slipped),
    ]);
    expect(forged.code).toBe(1);
    expect(forged.err).toMatch(/the key sets do not chain from the pinned version 1/);
    // A gap in the versions is named, not guessed over.
    deps.clock.set('2026-11-22T14:00:00Z');
    await rotateVerdictKey(deps, files);
    const v3 = await keySetOf(app);
    const gap = await run(['verify-verdict', answerFile, '--keys', pinned, '--keys', save('keys-v3.json', v3)]);
    expect(gap.code).toBe(1);
    expect(gap.err).toMatch(/versions 1 and 3 are given but not the ones between/);
    expect((await run(['verify-verdict', answerFile, '--keys', save('keys-1-2-3.json', [v1, v2, v3])])).code).toBe(0);
  });

  it('`tended verify-verdict` answers a missing proof field or a malformed key set with exit 1 and a sentence, not a TypeError', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const answer = await signedEntity(app, '/api/v1/entity/expressjs/express');
    const keys = save('keys.json', keySet);
    const { hashes: _hashes, ...noHashes } = answer.verdict.inclusion_proof;
    const missing = await run([
      'verify-verdict',
      save('no-hashes.json', { verdict: { ...answer.verdict, inclusion_proof: noHashes } }),
      '--keys',
      keys,
    ]);
    expect(missing).toMatchObject({
      code: 1,
      err: stringMatching(/not valid: the inclusion proof needs .*"hashes"/),
    });
    const notBase64 = await run([
      'verify-verdict',
      save('bad-hash.json', { verdict: { ...answer.verdict, inclusion_proof: { ...noHashes, hashes: ['%%%'] } } }),
      '--keys',
      keys,
    ]);
    expect(notBase64).toMatchObject({
      code: 1,
      err: stringMatching(/inclusion_proof.hashes\[0\] is not canonical base64/),
    });
    const vkeys = await run([
      'verify-verdict',
      save('answer.json', answer),
      '--keys',
      save('bad-keys.json', { ...keySet, log: { ...keySet.log, vkeys: 'x' } }),
    ]);
    expect(vkeys).toMatchObject({
      code: 1,
      err: stringMatching(/is not a key set: its "log.vkeys" is not a list/),
    });
  });

  it('`tended verify-verdict` never throws on arbitrary JSON in place of the verdict or the key set: exit 1 or 2 with a sentence', async () => {
    const app = appOn();
    const keySet = await keySetOf(app);
    const answer = await signedEntity(app, '/api/v1/entity/expressjs/express');
    /** Every path to a value inside a JSON value, so a mutation can reach any field. */
    const paths = (x: unknown, at: (string | number)[] = []): (string | number)[][] =>
      typeof x === 'object' && x !== null
        ? [at, ...Object.entries(x).flatMap(([k, v]) => paths(v, [...at, Array.isArray(x) ? Number(k) : k]))]
        : [at];
    const mutate = (x: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown => {
      if (path.length === 0) return value;
      const copy = (Array.isArray(x) ? [...(x as unknown[])] : { ...(x as object) }) as Record<
        string | number,
        unknown
      >;
      const [head, ...rest] = path;
      if (remove && rest.length === 0) delete copy[head!];
      else copy[head!] = mutate(copy[head!], rest, value, remove);
      return copy;
    };
    const mutated = (base: unknown) =>
      fc.oneof(
        fc.json({ maxDepth: 3 }).map((text) => JSON.parse(text) as unknown),
        fc.tuple(fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.boolean()).map(([i, value, remove]) => {
          const all = paths(base);
          return mutate(base, all[i % all.length]!, value, remove);
        }),
      );
    const answerPath = join(dir, 'fuzz-answer.json');
    const keysPath = join(dir, 'fuzz-keys.json');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(answer), mutated(answer)),
        fc.oneof(fc.constant(keySet), mutated(keySet)),
        async (a, k) => {
          writeFileSync(answerPath, JSON.stringify(a));
          writeFileSync(keysPath, JSON.stringify(k));
          const r = await run(['verify-verdict', answerPath, '--keys', keysPath]);
          if (r.code === 0) return;
          expect([1, 2]).toContain(r.code);
          expect(r.err).toMatch(/^tended: .{10,}/);
          expect(r.err).not.toMatch(/TypeError|Cannot read|is not a function|\n[ \t]+at /);
        },
      ),
      { numRuns: 400 },
    );
  }, 120_000);
});
