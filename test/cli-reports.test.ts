import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningKey } from '../src/config/signing-key.js';
import { normaliseComponent, type ComponentKind } from '../src/domain/component.js';
import type { State } from '../src/domain/state.js';
import { logNotary } from '../src/operations/deps.js';
import { openSqliteStore } from '../src/storage/sqlite/open.js';
import { parsedAs } from './support/json.js';
import { githubObservation } from './support/record.js';
import { sarifValidator } from './support/sarif-schema.js';
import { tended } from './support/tended-processes.js';

/**
 * `tended check FILE --format sarif|markdown` and `--fail-on`, as a real process over a real
 * SQLite record. The SARIF is validated against the OASIS SARIF 2.1.0 JSON schema
 * (test/vectors/sarif, see its README row) with ajv, and each result must point at the line of
 * the manifest that names its component.
 */
const AT = '2026-11-20 12:00:00';

/** Held components: kind, id, state, observation date. */
const HELD: [ComponentKind, string, State, string][] = [
  ['npm', 'express', 'archived', '2026-11-01'],
  ['npm', 'lodash', 'alive', '2026-11-02'],
  ['npm', '@acme/widgets', 'dormant', '2026-11-03'],
  ['pypi', 'requests', 'alive', '2026-11-04'],
  ['pypi', 'flask', 'abandoned', '2026-11-05'],
  ['docker', 'node:18', 'eol', '2026-11-06'],
  ['docker', 'postgres:16', 'not_observed', '2026-11-07'],
  ['github', 'actions/checkout', 'alive', '2026-11-08'],
  ['github', 'acme/retired', 'archived', '2026-11-09'],
];

/** The manifests, with the line each component is named on. */
const FILES: Record<string, { text: string; lines: Record<string, number> }> = {
  'package.json': {
    text: `{
  "name": "app",
  "dependencies": {
    "express": "^4.18.0",
    "lodash": "^4.17.21"
  },
  "devDependencies": {
    "@acme/widgets": "^2.0.0",

    "left-pad-never-seen": "1.0.0"
  }
}
`,
    lines: { 'npm:express': 4, 'npm:lodash': 5, 'npm:@acme/widgets': 8, 'npm:left-pad-never-seen': 10 },
  },
  'requirements.txt': {
    text: `# runtime
requests==2.32.0 \\
    --hash=sha256:0000000000000000000000000000000000000000000000000000000000000000

flask>=3  # web
`,
    lines: { 'pypi:requests': 2, 'pypi:flask': 5 },
  },
  Dockerfile: {
    text: `# syntax check off
ARG BASE=node:18

FROM \${BASE} AS build
RUN npm ci

FROM build
COPY --from=postgres:16 /usr/lib /usr/lib
`,
    lines: { 'docker:docker.io/library/node:18': 4, 'docker:docker.io/library/postgres:16': 8 },
  },
  '.github/workflows/ci.yml': {
    text: `name: ci
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4

      - uses: acme/retired@v1
        with:
          x: 1
`,
    lines: { 'github:actions/checkout': 7, 'github:acme/retired': 9 },
  },
};

let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tended-reports-'));
  env = { DATABASE_URL: `sqlite:${join(dir, 'record', 'tended.db')}` };
  const key = loadOrCreateSigningKey(join(dir, 'record', 'checkpoint-key.pem'));
  const notary = logNotary('tended.local/log/v1', key.privateKey, key.publicKey);
  const store = await openSqliteStore(join(dir, 'record', 'tended.db'));
  await store.initialiseLog(notary.seal);
  await store.appendObservations(
    HELD.map(([kind, id, state, date]) => ({
      ...githubObservation('acme/x', date, state),
      component: normaliseComponent(kind, id),
      source: `https://upstream.test/${kind}/${id}`,
    })),
    notary.seal,
  );
  await store.close();
  for (const [name, { text }] of Object.entries(FILES)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `tended check ARGS` as a real process, its clock at AT. */
async function check(args: string[]) {
  return tended(['check', ...args], env, AT).exited;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  kind?: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
  properties: {
    component: string;
    observation_date: string | null;
    source: string;
    leaf_index: number | null;
    line_known: boolean;
  };
}
interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; defaultConfiguration: { level: string } }[] } };
    results: SarifResult[];
  }[];
}

const validate = sarifValidator();

const LEVEL: Record<State, string> = {
  abandoned: 'error',
  archived: 'error',
  deleted: 'error',
  eol: 'error',
  dormant: 'warning',
  not_observed: 'note',
  'unknown-stale': 'note',
  alive: 'none',
};

describe('tended check --format sarif', () => {
  it('the validator refuses what the schema refuses, so a pass means something', () => {
    expect(
      validate({
        version: '2.1.0',
        runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'x' }, level: 'fatal' }] }],
      }),
    ).toBe(false);
    expect(validate({ version: '2.1.0', runs: [] })).toBe(true);
  });

  it.each(Object.keys(FILES))('%s: valid SARIF 2.1.0, one result per component at its line', async (name) => {
    const path = join(dir, name);
    const r = await check([path, '--format', 'sarif']);
    const log = parsedAs<SarifLog>(r.out);
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe('Tended');
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual([
      'alive',
      'dormant',
      'abandoned',
      'archived',
      'deleted',
      'eol',
      'unknown-stale',
      'not_observed',
    ]);
    const want = FILES[name]!.lines;
    expect(run.results.map((x) => x.properties.component).sort()).toEqual(Object.keys(want).sort());
    for (const result of run.results) {
      const location = result.locations[0]!.physicalLocation;
      expect(location.artifactLocation.uri).toBe(path);
      expect(location.region.startLine, result.properties.component).toBe(want[result.properties.component]);
      expect(result.properties.line_known).toBe(true);
      expect(run.tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
      const held = HELD.find(
        ([kind, id]) => normaliseComponent(kind, id).id === result.properties.component.split(':').slice(1).join(':'),
      );
      if (held) {
        const [, , state, date] = held;
        expect(result.ruleId).toBe(state);
        expect(result.level).toBe(LEVEL[state]);
        expect(result.properties.observation_date).toBe(date);
        expect(result.message.text).toContain(`Observed ${date}`);
        expect(result.message.text).toContain(`source ${result.properties.source}`);
        expect(result.message.text).toMatch(/log leaf \d+/);
        // A read that failed keeps the spec's sentence for not_observed.
        if (state === 'not_observed') expect(result.message.text).toContain('the check met 403, 429');
      } else {
        expect(result).toMatchObject({ ruleId: 'not_observed', level: 'note' });
        expect(result.message.text).toContain('not checked');
        // Issue 27 item 1: nothing was read, so no check can have met a failure.
        expect(result.message.text).not.toMatch(/403|429|time-out|network|check met/);
        expect(result.properties.leaf_index).toBeNull();
      }
    }
    // The exit code is the gate's, unchanged by the format.
    const failing = run.results.some((x) => x.level === 'error');
    expect(r.code).toBe(failing ? 1 : 0);
  });

  it('keeps a relative path as given on the command line', async () => {
    const given = relative(process.cwd(), join(dir, 'requirements.txt'));
    expect(given.startsWith('/')).toBe(false);
    const r = await check([given, '--format', 'sarif']);
    const uris = parsedAs<SarifLog>(r.out).runs[0]!.results.map(
      (x) => x.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual([given, given]);
  });
});

describe('tended check --format markdown', () => {
  it('is a table for a pull-request comment, every cell escaped', async () => {
    const name = join(dir, 'pipes|<b>.txt');
    writeFileSync(name, 'requests==2\nflask\n');
    const r = await check([name, '--format', 'markdown']);
    expect(r.code).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[0]).toContain('pipes\\|&lt;b>.txt');
    expect(lines).toContain('| state | observed | component | line | where | source |');
    expect(lines).toContain(
      '| alive | 2026-11-04 | pypi:requests | 1 | line 1 | https://upstream.test/pypi/requests |',
    );
    expect(lines).toContain('| abandoned | 2026-11-05 | pypi:flask | 2 | line 2 | https://upstream.test/pypi/flask |');
    // Every table row has exactly the header's seven unescaped pipes.
    for (const row of lines.filter((l) => l.startsWith('| ')))
      expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(8);
  });
});

describe('tended check --fail-on', () => {
  // Six `tended check` processes one after another: 10 s alone, 30 s once beside the suite's
  // heaviest files in CI; what it asserts is exit codes and sentences, not speed.
  it(
    'fails on the states named, on none with "none", and refuses a word that is not a state',
    { timeout: 90_000 },
    async () => {
      const file = join(dir, 'package.json');
      expect((await check([file])).code).toBe(1); // express is archived: the default gate
      expect((await check([file, '--fail-on', 'none'])).code).toBe(0);
      expect((await check([file, '--fail-on', 'eol,deleted'])).code).toBe(0);
      expect((await check([file, '--fail-on', 'dormant'])).code).toBe(1);
      const refused = await check([file, '--fail-on', 'dead']);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('--fail-on takes states separated by commas (alive, dormant');
      const format = await check([file, '--format', 'xml']);
      expect(format.code).toBe(2);
      expect(format.err).toContain('--format is table, json, sarif, markdown, cyclonedx or spdx');
    },
  );

  it('leaves the default table as it was', async () => {
    const r = await check([join(dir, 'requirements.txt')]);
    expect(r.out.split('\n')[1]).toMatch(/^state\s+observed\s+censoring\s+component\s+where$/);
    expect(r.out).toMatch(/abandoned\s+2026-11-05\s+interval-censored\s+pypi:flask\s+line 5/);
  });

  // Issue 27 item 1: the table says "not checked" where nothing was read, as the SARIF and Markdown do.
  it('says "not checked" for a component never read, and not_observed for a read that failed', async () => {
    const r = await check([join(dir, 'package.json'), '--fail-on', 'none']);
    expect(r.out).toMatch(/not checked\s+-\s+not-observed-at-date\s+npm:left-pad-never-seen/);
    const markdown = await check([join(dir, 'package.json'), '--format', 'markdown', '--fail-on', 'none']);
    expect(markdown.out).toContain('| not checked | — | npm:left-pad-never-seen |');
    const failed = await check([join(dir, 'Dockerfile'), '--fail-on', 'none']);
    expect(failed.out).toMatch(/not_observed\s+2026-11-07\s+\S+\s+docker:docker\.io\/library\/postgres:16/);
  });
});
