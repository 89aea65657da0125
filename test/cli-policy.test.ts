import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent } from '../src/domain/component.js';
import type { State } from '../src/domain/state.js';
import type { CheckAnswer } from '../src/operations/check-components.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import { githubObservation } from './support/record.js';
import { sarifValidator } from './support/sarif-schema.js';
import { serveAt, tended as tendedAt, type TendedProcess } from './support/tended-processes.js';

/**
 * The policy file of `tended check` as a CI user meets it: ripgrep's real Cargo.lock from the
 * corpus, checked by a real `tended` process against `tended serve` on loopback, with a
 * `.tended.yml` beside it (found without a flag) or named by --policy. A matched exception passes
 * the gate and says so in every report, an expired one fails it by name, a malformed policy is a
 * usage error naming line and field before anything is checked.
 */
const AT = '2026-11-20 12:00:00';
const LOCKFILE = fileURLToPath(new URL('./corpus/cargo-lock/ripgrep.Cargo.lock', import.meta.url));

let dir: string;
let lockfile: string;
let server: TendedProcess & { url: string };
const env = () => ({ DATABASE_URL: `sqlite:${join(dir, 'record', 'tended.db')}` });

async function check(args: string[]) {
  return tendedAt(['check', lockfile, '--url', server.url, ...args], env(), AT).exited;
}

const MATCHED = `# What fails our gate, and what we have decided to live with for now.
fail_on: [abandoned, archived, deleted, eol]
# Only what our own crates name fails the gate: cfg-if comes in through encoding_rs.
scope: direct
exceptions:
  - component: pkg:cargo/memmap2
    reason: grep-searcher pins it; dropped with the next grep release
    expires: 2027-03-31
  - component: cargo:encoding_rs*
    reason: transcoding moves into the standard library
    expires: 2027-01-15
  - component: cargo:lexopt
    reason: 'replacing it with clap in #3021'
    expires: 2026-12-31
  - component: npm:left-pad
    reason: the old web UI is gone
    expires: 2027-06-30
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-cli-policy-'));
  const key = loadOrCreateSigningKey(join(dir, 'record', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'record', 'tended.db'));
  await store.initialiseLog(notary.seal);
  const seen = (name: string, date: string, state: State) => ({
    ...githubObservation('acme/x', date, state),
    component: normaliseComponent('cargo', name),
  });
  await store.appendObservations(
    [
      seen('memmap2', '2026-11-01', 'archived'),
      seen('encoding_rs_io', '2026-11-02', 'abandoned'),
      seen('lexopt', '2026-11-03', 'eol'),
      seen('anyhow', '2026-11-04', 'alive'),
      seen('cfg-if', '2026-11-05', 'abandoned'),
    ],
    notary.seal,
  );
  await store.close();
  lockfile = join(dir, 'Cargo.lock');
  copyFileSync(LOCKFILE, lockfile);
  writeFileSync(join(dir, '.tended.yml'), MATCHED);
  server = await serveAt(env(), AT);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tended check with a policy file', () => {
  it('a matched exception passes the gate, says "excepted until DATE: reason", and one naming nothing is a warning', async () => {
    const r = await check([]);
    const policy = join(dir, '.tended.yml');
    expect(r.err).toBe(
      `tended: 3 components in a failing state are excepted by the policy: ` +
        `cargo:encoding_rs_io abandoned (observed 2026-11-02), excepted until 2027-01-15: transcoding moves into the standard library (${policy} line 9); ` +
        `cargo:lexopt eol (observed 2026-11-03), excepted until 2026-12-31: replacing it with clap in #3021 (${policy} line 12); ` +
        `cargo:memmap2 archived (observed 2026-11-01), excepted until 2027-03-31: grep-searcher pins it; dropped with the next grep release (${policy} line 6).\n` +
        `tended: warning: the exception for npm:left-pad (${policy} line 15) names no component of what was checked; remove it if it is no longer needed (reason: the old web UI is gone)\n`,
    );
    expect(r.code).toBe(0);
    const row = r.out.split('\n').find((l) => l.includes('cargo:memmap2'))!;
    expect(row).toMatch(/excepted until 2027-03-31: grep-searcher pins it; dropped with the next grep release$/);
  }, 60_000);

  it('says the exception in the Markdown, SARIF (an accepted external suppression) and JSON reports', async () => {
    const markdown = await check(['--format', 'markdown']);
    expect(markdown.code).toBe(0);
    expect(markdown.out).toMatch(/\| policy \|\n/);
    expect(markdown.out).toMatch(
      /cargo:memmap2 .*\| excepted until 2027-03-31: grep-searcher pins it; dropped with the next grep release \|/,
    );

    const sarif = await check(['--format', 'sarif']);
    expect(sarif.code).toBe(0);
    type Result = {
      ruleId: string;
      properties: { component: string };
      suppressions?: object[];
      message: { text: string };
    };
    const log = parsedAs<object>(sarif.out);
    // The suppression (kind, status, justification) is one SARIF 2.1.0 defines.
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const results = (log as { runs: { results: Result[] }[] }).runs[0]!.results;
    const memmap2 = results.find((x) => x.properties.component === 'cargo:memmap2')!;
    expect(memmap2.suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: `excepted until 2027-03-31: grep-searcher pins it; dropped with the next grep release (${join(dir, '.tended.yml')} line 6)`,
      },
    ]);
    expect(results.find((x) => x.properties.component === 'cargo:anyhow')!.suppressions).toBeUndefined();

    const json = await check(['--format', 'json']);
    const answer = parsedAs<CheckAnswer>(json.out);
    const lexopt = answer.results.find((x) => x.input.name === 'lexopt') as unknown as { exception: object };
    expect(lexopt.exception).toEqual({
      component: 'cargo:lexopt',
      reason: 'replacing it with clap in #3021',
      expires: '2026-12-31',
      status: 'excepted',
      policy: `${join(dir, '.tended.yml')} line 12`,
    });
  }, 90_000);

  it('an expired exception fails the gate with a sentence naming it; one that matches nothing failing is a warning', async () => {
    const expired = join(dir, 'expired.yml');
    writeFileSync(
      expired,
      MATCHED.replace('expires: 2027-01-15', 'expires: 2026-10-01') +
        `  - component: cargo:old-crate\n    reason: gone with the 14.x branch\n    expires: 2026-09-01\n`,
    );
    const r = await check(['--policy', expired]);
    expect(r.code).toBe(1);
    const lines = r.err.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^tended: 2 components in a failing state are excepted by the policy: cargo:lexopt/);
    expect(lines.slice(1)).toEqual([
      `tended: warning: the exception for npm:left-pad (${expired} line 15) names no component of what was checked; remove it if it is no longer needed (reason: the old web UI is gone)`,
      `tended: warning: the exception for cargo:old-crate (${expired} line 18) expired on 2026-09-01 and excepts nothing that fails the gate now; remove it (reason: gone with the 14.x branch)`,
      `tended: the check fails: the exception for cargo:encoding_rs* expired on 2026-10-01 (reason: transcoding moves into the standard library; ${expired} line 9), so cargo:encoding_rs_io abandoned (observed 2026-11-02) fails the gate again; give it a new date and reason, or remove it.`,
    ]);
    const row = r.out.split('\n').find((l) => l.includes('cargo:encoding_rs_io'))!;
    expect(row).toMatch(/exception expired on 2026-10-01: transcoding moves into the standard library$/);
    // Flags win over the file: with --fail-on none nothing fails, so the expired exception is only a warning.
    const flag = await check(['--policy', expired, '--fail-on', 'none']);
    expect(flag.code).toBe(0);
    expect(flag.err).toMatch(
      /warning: the exception for cargo:encoding_rs\* .* expired on 2026-10-01 and excepts nothing/,
    );
  }, 60_000);

  it('a malformed policy is a usage error naming line and field, and nothing is checked', async () => {
    const malformed = join(dir, 'malformed.yml');
    writeFileSync(
      malformed,
      `fail_on: [abandoned, archived, eol]
exceptions:
  - component: pkg:cargo/memmap2
    reason: grep-searcher pins it
    expires: 2027-03-31
  - component: cargo:lexopt
    reason: replacing it with clap
    expires: 2027-13-01
  - component: cargo:encoding_rs_io
    reasn: a typo must never pass a gate
    expires: 2027-01-15
`,
    );
    const r = await check(['--policy', malformed]);
    expect(r.err).toBe(
      `tended: the policy ${malformed} cannot be used, so nothing was checked: ` +
        `line 8, exceptions[1].expires: '2027-13-01' is not a date (YYYY-MM-DD): there is no month 13; ` +
        `line 10, exceptions[2].reasn: is not a key of an exception (they are component, reason, expires); ` +
        `line 9, exceptions[2].reason: is required. Its format: docs/cli.md "The policy file".\n`,
    );
    expect(r.out).toBe('');
    expect(r.code).toBe(2);
    // A policy that cannot be read at all is the same usage error.
    const missing = await check(['--policy', join(dir, 'nope.yml')]);
    expect(missing.err).toBe(`tended: cannot read ${join(dir, 'nope.yml')}: there is no such file\n`);
    expect(missing.code).toBe(2);
  }, 60_000);

  it('scope direct in the file lets a transitive failure pass; --scope all on the command line wins over it', async () => {
    const passes = await check([]);
    expect(passes.out).toMatch(/\nabandoned +2026-11-05 .* cargo:cfg-if .* transitive /);
    expect(passes.code).toBe(0);
    const fails = await check(['--scope', 'all']);
    expect(fails.err.trimEnd().split('\n').at(-1)).toBe(
      `tended: the check fails: 1 of 51 components as of 2026-11-20 is in a state that fails it (fail_on in ${join(dir, '.tended.yml')}: abandoned, archived, deleted, eol): cargo:cfg-if abandoned (observed 2026-11-05, [[package]] cfg-if 1.0.4).`,
    );
    expect(fails.code).toBe(1);
  }, 60_000);
});
