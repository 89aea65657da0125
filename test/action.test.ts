import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, bundleAction } from '../action/bundle.js';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent } from '../src/domain/component.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import { githubObservation } from './support/record.js';
import { serveAt, type TendedProcess } from './support/tended-processes.js';

/**
 * The GitHub Action (action.yml at the root), a JavaScript action, run here as the runner runs it:
 * `node action/dist/index.js` (the committed bundle, nothing installed) with each input as an
 * `INPUT_*` variable (its action.yml default filled in), `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY`
 * files, in the workspace, against `tended serve` on loopback.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AT = '2026-11-20 12:00:00';

interface Action {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
  runs: { using: string; main: string };
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as Action;

let dir: string;
let server: TendedProcess & { url: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-action-'));
  const key = loadOrCreateSigningKey(join(dir, 'record', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'record', 'tended.db'));
  await store.initialiseLog(notary.seal);
  await store.appendObservations(
    [
      { ...githubObservation('acme/x', '2026-11-01', 'archived'), component: normaliseComponent('npm', 'express') },
      { ...githubObservation('acme/x', '2026-11-02', 'alive'), component: normaliseComponent('npm', 'lodash') },
    ],
    notary.seal,
  );
  await store.close();
  writeFileSync(
    join(dir, 'package.json'),
    '{\n  "dependencies": {\n    "lodash": "^4",\n    "express": "^4"\n  }\n}\n',
  );
  server = await serveAt({ DATABASE_URL: `sqlite:${join(dir, 'record', 'tended.db')}` }, AT);
}, 90_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the bundle with `inputs` (the rest at their action.yml defaults), as the runner starts a node24 action. */
async function runAction(inputs: Record<string, string>) {
  const env: Record<string, string> = {};
  // Nothing of the test's own environment stands in for an input.
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('INPUT_') && v !== undefined) env[k] = v;
  for (const [name, input] of Object.entries(action.inputs))
    env[`INPUT_${name.toUpperCase()}`] = inputs[name] ?? input.default ?? '';
  const githubOutput = join(dir, 'github-output');
  const stepSummary = join(dir, 'step-summary.md');
  writeFileSync(githubOutput, '');
  writeFileSync(stepSummary, '');
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, action.runs.main)], {
    cwd: dir,
    env: { ...env, GITHUB_OUTPUT: githubOutput, GITHUB_STEP_SUMMARY: stepSummary, GITHUB_WORKSPACE: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    code,
    out,
    err,
    ms: performance.now() - started,
    output: readFileSync(githubOutput, 'utf8'),
    summary: readFileSync(stepSummary, 'utf8'),
  };
}

interface SarifLog {
  runs: {
    results: { ruleId: string; level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
  }[];
}

describe('the GitHub Action', () => {
  it('is a node24 JavaScript action whose file and url are required, as their descriptions say', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.js' });
    expect(Object.keys(action.inputs)).toEqual([
      'file',
      'url',
      'as-of',
      'format',
      'fail-on',
      'scope',
      'policy',
      'output',
    ]);
    expect(action.inputs.file!.required).toBe(true);
    expect(action.inputs.url!.required).toBe(true);
    expect(action.inputs.url!.description).not.toMatch(/without one/i);
    expect(Object.keys(action.outputs)).toEqual(['report']);
  });

  it('runs the bundle that is committed: action/dist/index.js is what `npm run build:action` builds now', async () => {
    expect(
      (await bundleAction()) === readFileSync(BUNDLE, 'utf8'),
      'action/dist/index.js is stale: run `npm run build:action` and commit it',
    ).toBe(true);
  });

  it('writes SARIF with each result at its line, annotates the failing line, and fails with 1', async () => {
    const r = await runAction({ file: 'package.json', url: server.url });
    const gate =
      'the check fails: 1 of 2 components as of 2026-11-20 is in a state that fails it (by default abandoned, archived, deleted, eol; --fail-on chooses others, or none): npm:express archived (observed 2026-11-01, dependencies.express).';
    expect(r.err).toBe(`tended: ${gate}\n`);
    expect(r.code).toBe(1);
    expect(r.output).toBe('report=tended.sarif\n');
    const log = parsedAs<SarifLog>(readFileSync(join(dir, 'tended.sarif'), 'utf8'));
    expect(
      log.runs[0]!.results.map((x) => [x.ruleId, x.level, x.locations[0]!.physicalLocation.region.startLine]),
    ).toEqual([
      ['alive', 'none', 3],
      ['archived', 'error', 4],
    ]);
    // One workflow command, at the line naming express; the alive lodash gets none.
    expect(r.out.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      `::error file=package.json,line=4,title=Tended%3A npm%3Aexpress archived::npm:express (direct) is archived (observed 2026-11-01, interval-censored, as of 2026-11-20; source https://api.github.com/repos/acme/x; log leaf 0).`,
    ]);
    expect(r.summary).toContain('**Tended check of `package.json`**, as of 2026-11-20');
    expect(r.summary).toContain('| archived | 2026-11-01 | npm:express | 4 |');
    expect(r.summary).toContain(`**The check fails**: ${gate}`);
  });

  it('passes with fail-on none, answers as of a date, writes Markdown, and warns on the line instead (its path from the root)', async () => {
    const r = await runAction({
      file: './package.json',
      url: server.url,
      'fail-on': 'none',
      'as-of': '2026-11-01',
      format: 'markdown',
      output: 'comment.md',
    });
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.output).toBe('report=comment.md\n');
    const comment = readFileSync(join(dir, 'comment.md'), 'utf8');
    expect(comment).toContain('as of 2026-11-01');
    expect(comment).toContain('| archived | 2026-11-01 | npm:express | 4 |');
    expect(comment).toContain('| not checked | — | npm:lodash | 3 |');
    expect(r.out).toMatch(/^::warning file=package\.json,line=4,title=Tended%3A npm%3Aexpress archived::/m);
    expect(r.out).not.toContain('::error');
    expect(r.summary).toBe(`${comment}\n**The check passes.**\n`);
  });

  it('walks a directory named as its file: each file’s results at their paths from the root, one SARIF run', async () => {
    const r = await runAction({ file: '.', url: server.url, scope: 'direct' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /--scope direct\): npm:express archived \(observed 2026-11-01, package\.json dependencies\.express\)\.\n/,
    );
    expect(r.err).toMatch(/^checked 1 file, 2 components in \d+\.\d s$/m);
    const log = parsedAs<{
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    }>(readFileSync(join(dir, 'tended.sarif'), 'utf8'));
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual([
      'package.json',
      'package.json',
    ]);
    expect(r.out).toMatch(
      /^::error file=package\.json,line=4,title=Tended%3A npm%3Aexpress archived::npm:express \(direct\) is archived/m,
    );
    expect(r.summary).toContain('### package.json');
    expect(r.summary).toContain('| archived | 2026-11-01 | npm:express | 4 | dependencies.express |');
  });

  it('reads the policy input: an exception in force passes the step and says so; an expired one fails it by name; a malformed one is 2', async () => {
    const policies = mkdtempSync(join(tmpdir(), 'tended-action-policy-'));
    try {
      const policy = (expires: string) => {
        const path = join(policies, `until-${expires}.yml`);
        writeFileSync(
          path,
          `exceptions:\n  - component: npm:express\n    reason: moving to fastify this quarter\n    expires: ${expires}\n`,
        );
        return path;
      };
      const inForce = await runAction({ file: 'package.json', url: server.url, policy: policy('2027-03-31') });
      expect(inForce.code).toBe(0);
      expect(inForce.out).toMatch(
        /^::warning file=package\.json,line=4,title=Tended%3A npm%3Aexpress archived::npm:express \(direct\) is archived \(.*\)\. excepted until 2027-03-31: moving to fastify this quarter \(.*until-2027-03-31\.yml line 2\)\.$/m,
      );
      expect(inForce.summary).toContain('| excepted until 2027-03-31: moving to fastify this quarter |');
      expect(inForce.summary).toContain('**The check passes.**');

      const expired = await runAction({ file: 'package.json', url: server.url, policy: policy('2026-11-19') });
      expect(expired.code).toBe(1);
      const sentence = `the check fails: the exception for npm:express expired on 2026-11-19 (reason: moving to fastify this quarter; ${join(policies, 'until-2026-11-19.yml')} line 2), so npm:express archived (observed 2026-11-01) fails the gate again; give it a new date and reason, or remove it.`;
      expect(expired.err).toBe(`tended: ${sentence}\n`);
      expect(expired.out).toMatch(/^::error file=package\.json,line=4,.*exception expired on 2026-11-19/m);
      expect(expired.summary).toContain(`**The check fails**: ${sentence}`);

      const malformed = await runAction({ file: 'package.json', url: server.url, policy: policy('someday') });
      expect(malformed.code).toBe(2);
      expect(malformed.err).toMatch(
        /cannot be used, so nothing was checked: line 4, exceptions\[0\]\.expires: takes a date/,
      );
      expect(malformed.out).toMatch(/^::error::the policy .* cannot be used/m);
    } finally {
      rmSync(policies, { recursive: true, force: true });
    }
  });

  it('fails with 3, not the gate’s 1, when the service cannot be reached, and says so in the summary', async () => {
    const r = await runAction({ file: 'package.json', url: 'http://127.0.0.1:9' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('could not reach http://127.0.0.1:9/api/v1/manifest');
    expect(r.out).toMatch(/^::error::could not reach http:\/\/127\.0\.0\.1:9\/api\/v1\/manifest/m);
    expect(r.summary).toMatch(/^\*\*Tended could not check `package\.json`\*\*: could not reach/);
    expect(readFileSync(join(dir, 'tended.sarif'), 'utf8')).toBe('');
  });

  it('fails with 2 for a usage error: no url, a state fail-on does not know, a file that is not there', async () => {
    const noUrl = await runAction({ file: 'package.json', url: '' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.out).toContain('::error::the url input is required');
    const badState = await runAction({ file: 'package.json', url: server.url, 'fail-on': 'dead' });
    expect(badState.code).toBe(2);
    expect(badState.err).toContain('--fail-on takes states separated by commas');
    const noFile = await runAction({ file: 'nope/package.json', url: server.url });
    expect(noFile.code).toBe(2);
    expect(noFile.err).toBe('tended: cannot read nope/package.json: there is no such file\n');
  });
});
