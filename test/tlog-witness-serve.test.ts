/**
 * `tended serve` with TENDED_WITNESSES, as an operator runs it: each new checkpoint reaches the
 * witness (the independent test witness process) within a period, and /tlog/checkpoint carries
 * its cosignature; appends by another process are witnessed too. A witness that refuses the log's
 * history (422) is logged as such.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { githubObservation } from './support/record.js';
import { serveAt, waitFor } from './support/tended-processes.js';
import { startWitness, type TestWitness } from './support/test-witness.js';
import { TENDED_MAIN as MAIN } from './support/tended-bin.js';

function tendedVerify(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'verify', ...args], {
      env: { ...process.env, TENDED_OBSERVER: 'off', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

let dir: string;
const stops: (() => Promise<void>)[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tended-witness-serve-'));
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('tended serve with TENDED_WITNESSES', () => {
  it('sends each new checkpoint to the witness and serves it cosigned; a forked history is logged loudly', async () => {
    const key = loadOrCreateSigningKey(join(dir, 'checkpoint-key.pem'));
    const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
    const store = await openSqliteStore(join(dir, 'tended.db'));
    stops.push(() => store.close());
    await store.initialiseLog(notary.seal);
    const append = (names: string[]) =>
      store.appendObservations(
        names.map((n) => githubObservation(n, '2025-03-01', 'alive')),
        notary.seal,
      );
    await append(['acme/a', 'acme/b', 'acme/c']);

    const witness: TestWitness = await startWitness(
      'w1.example/witness',
      [{ origin: notary.origin, vkey: notary.vkey }],
      dir,
    );
    stops.push(() => witness.stop());
    const served = await serveAt(
      {
        DATABASE_URL: `sqlite:${join(dir, 'tended.db')}`,
        TENDED_WITNESSES: `${witness.vkey} ${witness.url}/`,
        TENDED_WITNESS_PERIOD_S: '1',
      },
      '2026-11-29 12:00:00',
    );
    stops.push(() => served.stop());
    const cosignedAt = async (size: number) => {
      const note = await (await fetch(`${served.url}/tlog/checkpoint`)).text();
      return note.startsWith(`${notary.origin}\n${size}\n`) && note.includes(`\n\u2014 ${witness.name} `);
    };
    await waitFor(
      'the first checkpoint cosigned',
      20_000,
      () => cosignedAt(3),
      () => served.output().out,
    );
    // Another process appends: the next period sends the new checkpoint with a proof from 3.
    await append(['acme/d', 'acme/e']);
    await waitFor(
      'the next checkpoint cosigned',
      20_000,
      () => cosignedAt(5),
      () => served.output().out,
    );
    const witnesses = (await (await fetch(`${served.url}/api/chain/witnesses`)).json()) as {
      witnesses: { witness: string; cosigned: { tree_size: number } | null; refusal: unknown }[];
    };
    expect(witnesses.witnesses).toEqual([
      expect.objectContaining({
        witness: witness.name,
        cosigned: expect.objectContaining({ tree_size: 5 }) as unknown,
        refusal: null,
      }),
    ]);
    expect(served.output().out).toContain('witness cosigned the checkpoint');

    // The log's history is rewritten under the same key (its store swapped for another): the
    // witness, which saw 5 leaves of the real one, refuses, and serve says so at error level.
    await served.stop();
    const forkStore = await openSqliteStore(join(dir, 'fork.db'));
    stops.push(() => forkStore.close());
    await forkStore.initialiseLog(notary.seal);
    await forkStore.appendObservations(
      ['evil/a', 'evil/b', 'evil/c', 'evil/d', 'evil/e', 'evil/f'].map((n) =>
        githubObservation(n, '2025-03-01', 'alive'),
      ),
      notary.seal,
    );
    const fork = await serveAt(
      {
        DATABASE_URL: `sqlite:${join(dir, 'fork.db')}`,
        TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem'),
        TENDED_WITNESSES: `${witness.vkey} ${witness.url}`,
        TENDED_WITNESS_PERIOD_S: '1',
      },
      '2026-11-29 12:00:00',
    );
    stops.push(() => fork.stop());
    await waitFor(
      'the refusal logged',
      20_000,
      () => fork.output().out.includes('WITNESS REFUSED THE CHECKPOINT AS INCONSISTENT'),
      () => fork.output().out,
    );
    const logged = fork
      .output()
      .out.split('\n')
      .find((l) => l.includes('WITNESS REFUSED'))!;
    expect(JSON.parse(logged)).toMatchObject({
      level: 50,
      witness: witness.name,
      status: 422,
      tree_size: 6,
      inconsistent: true,
    });
    const note = await (await fetch(`${fork.url}/tlog/checkpoint`)).text();
    expect(note).not.toContain(witness.name);
    await fork.stop();

    // `tended verify` of each local store with the witness as the policy: the real one meets it,
    // the fork does not, and says what the witness answered.
    const real = await tendedVerify(['--witness', witness.vkey], { DATABASE_URL: `sqlite:${join(dir, 'tended.db')}` });
    expect(real.err).not.toMatch(/NOT/);
    expect(real.code).toBe(0);
    expect(real.out).toContain(`witness ok: ${witness.name}: cosigned size 5 at `);
    const forked = await tendedVerify(['--witness', witness.vkey], {
      DATABASE_URL: `sqlite:${join(dir, 'fork.db')}`,
      TENDED_SIGNING_KEY: join(dir, 'checkpoint-key.pem'),
    });
    expect(forked.code).toBe(1);
    expect(forked.out).toContain('verified: 6 leaves');
    expect(forked.out).toMatch(/for size 6: 422: the witness refused the checkpoint as inconsistent/);
    expect(forked.err).toContain('the witness policy is NOT met: 0 of the 1 named witnesses');
  });
});
