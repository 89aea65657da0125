/**
 * The witnessed log (issue 38) against witnesses written from the C2SP tlog-witness spec, each its
 * own process (test/support/tlog-witness.mjs): every new checkpoint is cosigned, the cosignatures
 * are served, `tended verify` checks a k-of-n policy the verifier chooses, and a forked log — the
 * same key and origin with another history — is refused by the witness (422) and reported.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCosignerKey } from '../src/notary/cosignature.js';
import type { RecordDeps } from '../src/operations/deps.js';
import { witnessLatestCheckpoint, type ConfiguredWitness } from '../src/operations/witness-checkpoints.js';
import { githubObservation, postgresTestStore, recordDeps, sqliteTestStore, type TestStore } from './support/record.js';
import { serveLog, startWitness, type TestWitness } from './support/test-witness.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

const OPTIONS = { timeoutMs: 5_000, userAgent: 'tended-test' };

function tendedVerify(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'verify', ...args], {
      env: { ...process.env, TENDED_OBSERVER: 'off' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

const configured = (w: { vkey: string; url: string }): ConfiguredWitness => ({
  cosigner: parseCosignerKey(w.vkey),
  url: w.url,
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tended-witness-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['sqlite', sqliteTestStore],
  ['postgres', postgresTestStore],
] as const)('witnesses on %s', (_backend, open) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function log(deps?: RecordDeps, prefix = 'acme/r') {
    const t: TestStore = await open();
    cleanups.push(() => t.dispose());
    const d: RecordDeps = deps ? { ...deps, store: t.store } : recordDeps(t.store);
    await t.store.initialiseLog(d.notary.seal);
    let n = 0;
    const append = async (count: number) => {
      const batch = Array.from({ length: count }, () => githubObservation(`${prefix}${n++}`, '2025-03-01', 'alive'));
      await t.store.appendObservations(batch, d.notary.seal);
    };
    return { deps: d, append };
  }
  async function witness(name: string, logs: { origin: string; vkey: string }[]): Promise<TestWitness> {
    const w = await startWitness(name, logs, dir);
    cleanups.push(() => w.stop());
    return w;
  }
  async function served(deps: RecordDeps) {
    const s = await serveLog(deps);
    cleanups.push(() => s.close());
    return s.url;
  }

  it('two witnesses cosign each new checkpoint; the checkpoint carries their lines; 2 of 2 verifies, 3 of 3 does not', async () => {
    const { deps, append } = await log();
    const logKey = [{ origin: deps.notary.origin, vkey: deps.notary.vkey }];
    const w1 = await witness('w1.example/witness', logKey);
    const w2 = await witness('w2.example/witness', logKey);
    const absent = await witness('w3.example/witness', logKey); // named by the policy, never sent to

    await append(5);
    for (const w of [w1, w2])
      expect(await witnessLatestCheckpoint(deps, configured(w), OPTIONS)).toMatchObject({
        kind: 'cosigned',
        tree_size: 5,
      });
    // Nothing new: nothing sent.
    expect(await witnessLatestCheckpoint(deps, configured(w1), OPTIONS)).toMatchObject({ kind: 'current' });
    await append(20);
    // From 5 to 25 with a consistency proof the witness checks itself.
    for (const w of [w1, w2])
      expect(await witnessLatestCheckpoint(deps, configured(w), OPTIONS)).toMatchObject({
        kind: 'cosigned',
        tree_size: 25,
      });

    const url = await served(deps);
    const note = await (await fetch(`${url}/tlog/checkpoint`)).text();
    const lines = note
      .slice(note.lastIndexOf('\n\n') + 2)
      .trimEnd()
      .split('\n');
    expect(lines.map((l) => l.split(' ')[1])).toEqual([deps.notary.origin, w1.name, w2.name]);
    expect(note).not.toContain('stranger.example');

    const verified = await tendedVerify([
      '--url',
      url,
      '--key',
      deps.notary.vkey,
      '--witness',
      w1.vkey,
      '--witness',
      w2.vkey,
    ]);
    expect(verified.err).not.toMatch(/NOT/);
    expect(verified.code).toBe(0);
    expect(verified.out).toContain(`witness ok: ${w1.name}: cosigned size 25 at `);
    expect(verified.out).toContain(`witness ok: ${w2.name}: cosigned size 25 at `);
    expect(verified.out).toContain('witness policy met: 2 of 2 named witnesses cosigned, 2 required');

    const three = await tendedVerify([
      '--url',
      url,
      '--key',
      deps.notary.vkey,
      '--witness',
      w1.vkey,
      '--witness',
      w2.vkey,
      '--witness',
      absent.vkey,
    ]);
    expect(three.code).toBe(1);
    expect(three.out).toContain(`witness NOT counted: ${absent.name}: no cosigned checkpoint of this log`);
    expect(three.err).toContain(
      'the witness policy is NOT met: 2 of the 3 named witnesses cosigned a checkpoint consistent with the verified log, 3 required',
    );
    // 2 of 3 is a policy the same cosignatures meet.
    const twoOfThree = await tendedVerify([
      '--url',
      url,
      '--key',
      deps.notary.vkey,
      '--witness',
      w1.vkey,
      '--witness',
      w2.vkey,
      '--witness',
      absent.vkey,
      '--witness-threshold',
      '2',
    ]);
    expect(twoOfThree.code).toBe(0);
    // A log vkey is not a witness key: a usage error, said.
    const wrongKey = await tendedVerify(['--url', url, '--witness', deps.notary.vkey]);
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.err).toMatch(/not an Ed25519 key of type 0x04; a --witness is a cosigner vkey/);
  });

  it('a witness that holds another size (409) is sent a proof from that size, once', async () => {
    const { deps, append } = await log();
    const w = await witness('w1.example/witness', [{ origin: deps.notary.origin, vkey: deps.notary.vkey }]);
    await append(7);
    expect(await witnessLatestCheckpoint(deps, configured(w), OPTIONS)).toMatchObject({
      kind: 'cosigned',
      tree_size: 7,
    });
    await append(9);
    // The log forgets what the witness cosigned (a restored backup): it sends old 0, hears 409 7, proves 7 → 16.
    await deps.store.putWitnessRecord({
      witness: w.name,
      cosigned: null,
      refusal: null,
      updated_at: '2026-11-29T00:00:00Z',
    });
    expect(await witnessLatestCheckpoint(deps, configured(w), OPTIONS)).toMatchObject({
      kind: 'cosigned',
      tree_size: 16,
    });
  });

  it('an unknown log (404), an untrusted key (403) and a witness not answering are kept as refusals, said', async () => {
    const { deps, append } = await log();
    await append(3);
    const other = recordDeps(deps.store).notary; // another key under the same origin name
    const unknown = await witness('w404.example/witness', []); // knows no log at all
    const untrusting = await witness('w403.example/witness', [{ origin: other.origin, vkey: other.vkey }]);
    expect(await witnessLatestCheckpoint(deps, configured(unknown), OPTIONS)).toMatchObject({
      kind: 'refused',
      status: 404,
      inconsistent: false,
      reason: expect.stringContaining('does not know this log') as unknown,
    });
    expect(await witnessLatestCheckpoint(deps, configured(untrusting), OPTIONS)).toMatchObject({
      kind: 'refused',
      status: 403,
      reason: expect.stringContaining('does not trust the key') as unknown,
    });
    await untrusting.stop();
    expect(await witnessLatestCheckpoint(deps, configured(untrusting), OPTIONS)).toMatchObject({
      kind: 'refused',
      status: null,
      reason: expect.stringContaining('unreachable: ECONNREFUSED') as unknown,
    });
    const records = await deps.store.witnessRecords();
    expect(records.map((r) => [r.witness, r.refusal?.status, r.cosigned])).toEqual([
      ['w403.example/witness', null, null],
      ['w404.example/witness', 404, null],
    ]);
  });

  it('a witness that does not answer in time, or answers 200 without its own valid cosignature, is not taken at its word', async () => {
    const { deps, append } = await log();
    await append(2);
    const w = await witness('w1.example/witness', []); // for its key only: the fake below answers in its name
    let mode: 'hang' | 'other-key' | 'bad-signature' | 'bad-409' = 'hang';
    const fake = createServer((req, res) => {
      req.resume();
      if (mode === 'hang') return; // never answers
      const line = (keyId: string) =>
        `\u2014 ${w.name} ${Buffer.concat([Buffer.from(keyId, 'hex'), Buffer.alloc(72, 1)]).toString('base64')}\n`;
      if (mode === 'bad-409') {
        res.writeHead(409, { 'content-type': 'text/x.tlog.size' });
        return res.end('lots\n');
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(line(mode === 'other-key' ? '00000000' : w.vkey.split('+')[1]!));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          fake.closeAllConnections();
          fake.close(() => resolve());
        }),
    );
    const at = { cosigner: parseCosignerKey(w.vkey), url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` };
    expect(await witnessLatestCheckpoint(deps, at, { ...OPTIONS, timeoutMs: 300 })).toMatchObject({
      kind: 'refused',
      status: null,
      reason: 'unreachable: no answer within 300 ms',
    });
    mode = 'other-key';
    expect(await witnessLatestCheckpoint(deps, at, OPTIONS)).toMatchObject({
      status: 200,
      reason: 'answered 200 without a cosignature by its configured key',
    });
    mode = 'bad-signature';
    expect(await witnessLatestCheckpoint(deps, at, OPTIONS)).toMatchObject({
      status: 200,
      reason: expect.stringContaining('answered 200 with a cosignature that does not verify') as unknown,
    });
    mode = 'bad-409';
    expect(await witnessLatestCheckpoint(deps, at, OPTIONS)).toMatchObject({ status: 409, inconsistent: false });
    expect((await deps.store.witnessRecords())[0]!.cosigned).toBeNull();
  });

  it('a forked log (same key and origin, another history) is refused by the witness (422), kept, not resent, and tended verify reports it', async () => {
    const real = await log();
    const w = await witness('w1.example/witness', [{ origin: real.deps.notary.origin, vkey: real.deps.notary.vkey }]);
    await real.append(10);
    expect(await witnessLatestCheckpoint(real.deps, configured(w), OPTIONS)).toMatchObject({
      kind: 'cosigned',
      tree_size: 10,
    });

    // A second store signed with the same key: the split view a log could show one reader.
    const fork = await log(real.deps, 'evil/r');
    await fork.append(14);
    const refused = await witnessLatestCheckpoint(fork.deps, configured(w), OPTIONS);
    expect(refused).toMatchObject({ kind: 'refused', status: 422, tree_size: 14, inconsistent: true });
    expect(w.output()).toMatch(/inconsistent .* 10 -> 14/);
    // The same checkpoint is never sent again: the witness heard it once.
    expect(await witnessLatestCheckpoint(fork.deps, configured(w), OPTIONS)).toMatchObject({
      kind: 'refused',
      status: 422,
    });
    expect(w.output().match(/inconsistent/g)).toHaveLength(1);

    const url = await served(fork.deps);
    const verify = await tendedVerify(['--url', url, '--key', fork.deps.notary.vkey, '--witness', w.vkey]);
    expect(verify.code).toBe(1);
    expect(verify.out).toContain('verified: 14 leaves');
    expect(verify.out).toContain(
      `witness NOT counted: ${w.name}: no cosigned checkpoint of this log; the log reports its last answer, for size 14: 422: the witness refused the checkpoint as inconsistent with the tree it saw: the log forked or was rewritten`,
    );
    expect(verify.err).toContain('the witness policy is NOT met: 0 of the 1 named witnesses');

    // A log with fewer leaves than the witness cosigned (a store restored from an old backup): the
    // witness answers 409 with its larger size, and no proof can go backwards: a rewritten history.
    const shorter = await log(real.deps, 'old/r');
    await shorter.append(4);
    const behind = await witnessLatestCheckpoint(shorter.deps, configured(w), OPTIONS);
    expect(behind).toMatchObject({ kind: 'refused', status: 409, tree_size: 4, inconsistent: true });
    expect((behind as { reason: string }).reason).toMatch(/holds a larger tree of this origin than the log's 4 leaves/);

    // The real log goes on being cosigned: the witness's view is the real history.
    await real.append(1);
    expect(await witnessLatestCheckpoint(real.deps, configured(w), OPTIONS)).toMatchObject({
      kind: 'cosigned',
      tree_size: 11,
    });
  });
});
