import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datedRead } from '../domain/as-of.js';
import { normaliseComponent } from '../domain/component.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import { parsePackageJson } from '../parsers/package-json/parse.js';
import type { ParseResult } from '../parsers/reference.js';
import {
  githubObservation,
  recordDeps,
  sqliteTestStore,
  testNotary,
  type TestStore,
} from '../../test/support/record.js';
import { failingOf } from './check-options.js';
import { table } from './check-report.js';
import { mergeManifestLockfile } from './manifest-lockfile.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from '../operations/sarif-report.js';

/**
 * The resolved tree in the reports, over a real record: a real package.json (every entry direct,
 * devDependencies dev) paired with a hand-written lockfile parse whose entries sit deeper in the
 * tree, answered by checkComponents as `tended check DIR` answers it.
 */
let t: TestStore;
let answer: CheckAnswer;

const manifest = parsePackageJson(
  `{
  "dependencies": { "glob": "^7" },
  "devDependencies": { "vitest": "^4" }
}
`,
  { lines: true },
);
const lockfile: ParseResult = {
  format: 'package-json',
  references: [
    {
      ref: normaliseComponent('npm', 'glob'),
      input: 'glob@7.2.3',
      location: 'line 3',
      line: 3,
      tree: { resolvedVersion: '7.2.3' },
    },
    {
      ref: normaliseComponent('npm', 'inflight'),
      input: 'inflight@1.0.6',
      location: 'line 9',
      line: 9,
      tree: { resolvedVersion: '1.0.6', scope: 'transitive', via: ['glob'] },
    },
    {
      ref: normaliseComponent('npm', 'deep-one'),
      input: 'deep-one@2.0.0',
      location: 'line 20',
      line: 20,
      tree: { resolvedVersion: '2.0.0', scope: 'transitive', via: ['vitest', 'a', 'b'], viaElided: 5, dev: true },
    },
  ],
  unresolved: [],
};

beforeAll(async () => {
  t = await sqliteTestStore();
  const notary = testNotary();
  await t.store.initialiseLog(notary.seal);
  await t.store.appendObservations(
    [
      { ...githubObservation('acme/x', '2026-11-01', 'archived'), component: normaliseComponent('npm', 'inflight') },
      { ...githubObservation('acme/x', '2026-11-02', 'alive'), component: normaliseComponent('npm', 'glob') },
      { ...githubObservation('acme/x', '2026-11-03', 'eol'), component: normaliseComponent('npm', 'deep-one') },
    ],
    notary.seal,
  );
  const deps = recordDeps(t.store);
  answer = await checkComponents(
    deps,
    mergeManifestLockfile(manifest, lockfile, 'package.json'),
    datedRead('2026-11-20', deps.clock.now()),
  );
});
afterAll(async () => {
  await t.dispose();
});

const result = (name: string) => answer.results.find((r) => r.input.name === name)!;

describe('the reports show where each component sits in the tree', () => {
  it('answers with the merged places: direct from the manifest, transitive with their path', () => {
    expect(result('glob')).toMatchObject({ scope: 'direct', via: [], resolved_version: '7.2.3' });
    expect(result('vitest')).toMatchObject({ scope: 'direct', dev: true, via: [] });
    expect(result('inflight')).toMatchObject({ scope: 'transitive', via: ['glob'], resolved_version: '1.0.6' });
  });

  it('table: a version, a scope and a path column', () => {
    const lines = table(answer).split('\n');
    expect(lines[1]).toMatch(/^state\s+observed\s+censoring\s+component\s+version\s+scope\s+where\s+path$/);
    expect(table(answer)).toMatch(
      /archived\s+2026-11-01\s+\S+\s+npm:inflight\s+1\.0\.6\s+transitive\s+line 9\s+via glob\n/,
    );
    expect(table(answer)).toMatch(
      /npm:deep-one\s+2\.0\.0\s+transitive, dev\s+line 20\s+via vitest → a → … 5 more … → b\n/,
    );
    expect(table(answer)).toMatch(/npm:glob\s+7\.2\.3\s+direct\s+line 3\n/);
  });

  it('markdown: the same columns after the others, the direct ones at their manifest line', () => {
    const linesIn = new Map([['npm:glob', 'package.json']]);
    const md = reviewComment(
      answer,
      'package-lock.json',
      new Map([
        ['npm:glob', [2]],
        ['npm:inflight', [9]],
      ]),
      linesIn,
    );
    expect(md).toContain('| state | observed | component | line | where | source | version | scope | path |');
    expect(md).toMatch(
      /\| archived \| 2026-11-01 \| npm:inflight \| 9 \| line 9 \| \S+ \| 1\.0\.6 \| transitive \| via glob \|/,
    );
    expect(md).toMatch(/\| npm:glob \| package\.json:2 \| .* \| 7\.2\.3 \| direct \| — \|/);
  });

  it('SARIF: the message says scope and path, the properties carry them, a direct one is located in its manifest', () => {
    const log = sarifReport(answer, {
      file: 'app/package-lock.json',
      lines: new Map([['npm:glob', [2]]]),
      linesIn: new Map([['npm:glob', 'app/package.json']]),
    }) as {
      runs: {
        results: {
          message: { text: string };
          properties: Record<string, unknown>;
          locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[];
        }[];
      }[];
    };
    const byName = (name: string) => log.runs[0]!.results.find((r) => r.properties.component === `npm:${name}`)!;
    expect(byName('inflight').message.text).toMatch(
      /^npm inflight \(transitive, via glob, resolved 1\.0\.6\) is archived:/,
    );
    expect(byName('inflight').properties).toMatchObject({
      scope: 'transitive',
      via: ['glob'],
      resolved_version: '1.0.6',
    });
    expect(byName('deep-one').properties).toMatchObject({ dev: true, via_elided: 5 });
    expect(byName('glob').locations[0]!.physicalLocation).toEqual({
      artifactLocation: { uri: 'app/package.json' },
      region: { startLine: 2 },
    });
    expect(byName('inflight').locations[0]!.physicalLocation.artifactLocation.uri).toBe('app/package-lock.json');
  });

  it('--scope direct gates on direct results only; results whose file does not say count as direct', () => {
    const gate = { failOn: new Set(['archived', 'eol']), byDefault: true, directOnly: false };
    expect(
      failingOf(answer.results, gate)
        .map((r) => r.input.name)
        .sort(),
    ).toEqual(['deep-one', 'inflight']);
    expect(failingOf(answer.results, { ...gate, directOnly: true })).toEqual([]);
    const unsaid = { ...result('inflight'), scope: undefined };
    expect(failingOf([unsaid], { ...gate, directOnly: true })).toEqual([unsaid]);
  });
});
