import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent } from '../src/domain/component.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import { githubObservation } from './support/record.js';
import { serveAt, type TendedProcess } from './support/tended-processes.js';

/**
 * The GitHub Action (action.yml at the root), its check step run here as the runner runs it: the
 * step's `run:` script, with its `env:` filled from the inputs, under GitHub's bash invocation,
 * against `tended serve` on loopback. The install step is `npm ci`, which this checkout has had;
 * `npx --no-install` then runs the built dist/ as in the action.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const AT = '2026-11-20 12:00:00';

interface Step {
  name?: string;
  uses?: string;
  shell?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
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

/** Runs the action's check step with `inputs` (the rest at their defaults) in the test's directory. */
async function runCheckStep(inputs: Record<string, string>) {
  const step = action.runs.steps.find((s) => s.name === 'Check')!;
  const values: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) values[name] = inputs[name] ?? input.default ?? '';
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const githubOutput = join(dir, 'github-output');
  writeFileSync(githubOutput, '');
  const script = join(dir, 'check-step.sh');
  writeFileSync(script, fill(step.run!));
  // GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail {0}`.
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: dir,
    env: { ...process.env, ...env, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: githubOutput },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, err, output: readFileSync(githubOutput, 'utf8') };
}

interface SarifLog {
  runs: {
    results: { ruleId: string; level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
  }[];
}

describe('the GitHub Action', () => {
  it('is a composite action that sets up Node and takes file, url, as-of, format and fail-on', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps[0]!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['file', 'url', 'as-of', 'format', 'fail-on']));
    // No input is pasted into a script: each reaches it through the step's environment.
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
    expect(existsSync(join(ROOT, 'dist', 'main.js')), 'dist/ is built by npm ci (prepare)').toBe(true);
  });

  it('writes SARIF with each result at its line, and fails the step on an archived component', async () => {
    const r = await runCheckStep({ file: 'package.json', url: server.url });
    // On stderr, Tended's one sentence saying which component failed the gate, for the job's log.
    // npm's own warnings about the machine's npm configuration (`npm warn Unknown env config
    // "nodedir"` where ~/.npmrc sets it) are npm's, not the step's.
    expect(r.err.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn '))).toEqual([
      'tended: the check fails: 1 of 2 components as of 2026-11-20 is in a state that fails it (by default abandoned, archived, deleted, eol; --fail-on chooses others, or none): npm:express archived (observed 2026-11-01, dependencies.express).',
    ]);
    expect(r.code).toBe(1);
    expect(r.output).toBe('report=tended.sarif\n');
    const log = parsedAs<SarifLog>(readFileSync(join(dir, 'tended.sarif'), 'utf8'));
    expect(
      log.runs[0]!.results.map((x) => [x.ruleId, x.level, x.locations[0]!.physicalLocation.region.startLine]),
    ).toEqual([
      ['alive', 'none', 3],
      ['archived', 'error', 4],
    ]);
  });

  it('passes with fail-on none, answers as of a date, and writes Markdown', async () => {
    const r = await runCheckStep({
      file: 'package.json',
      url: server.url,
      'fail-on': 'none',
      'as-of': '2026-11-01',
      format: 'markdown',
      output: 'comment.md',
    });
    expect(r.code).toBe(0);
    const comment = readFileSync(join(dir, 'comment.md'), 'utf8');
    expect(comment).toContain('as of 2026-11-01');
    expect(comment).toContain('| archived | 2026-11-01 | npm:express | 4 |');
    expect(comment).toContain('| not checked | — | npm:lodash | 3 |');
  });

  it('says what is wrong when the service cannot be reached, and fails the step with 3, not the gate’s 1', async () => {
    const r = await runCheckStep({ file: 'package.json', url: 'http://127.0.0.1:9' });
    expect(r.code).toBe(3);
    expect(r.err).toContain('could not reach http://127.0.0.1:9/api/v1/manifest');
  });
});
