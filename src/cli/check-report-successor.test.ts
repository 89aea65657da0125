import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datedRead } from '../domain/as-of.js';
import { normaliseComponent } from '../domain/component.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import { parsePackageJson } from '../parsers/package-json/parse.js';
import {
  githubObservation,
  recordDeps,
  sqliteTestStore,
  testNotary,
  type TestStore,
} from '../../test/support/record.js';
import { table } from './check-report.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from '../operations/sarif-report.js';

/**
 * A deprecation that names its replacement, in every report of `tended check` (methodology:
 * successors): the JSON answer's field, a column of the table and of the Markdown comment, and
 * the SARIF message. The message is sourcemap-codec's real one on npm.
 */
let t: TestStore;
let answer: CheckAnswer;

beforeAll(async () => {
  t = await sqliteTestStore();
  const notary = testNotary();
  await t.store.initialiseLog(notary.seal);
  await t.store.appendObservations(
    [
      {
        ...githubObservation('acme/x', '2026-11-01', 'archived'),
        component: normaliseComponent('npm', 'sourcemap-codec'),
        evidence: { http_status: 200, deprecated: 'Please use @jridgewell/sourcemap-codec instead' },
      },
      {
        ...githubObservation('acme/x', '2026-11-01', 'archived'),
        component: normaliseComponent('npm', 'request'),
        evidence: {
          http_status: 200,
          deprecated: 'request has been deprecated, see https://github.com/request/request/issues/3142',
        },
      },
    ],
    notary.seal,
  );
  const manifest = parsePackageJson('{\n  "dependencies": { "sourcemap-codec": "^1", "request": "^2" }\n}\n', {
    lines: true,
  });
  const deps = recordDeps(t.store);
  answer = await checkComponents(deps, manifest, datedRead('2026-11-20', deps.clock.now()));
});
afterAll(async () => {
  await t.dispose();
});

describe('a successor the registry names, in every report', () => {
  it('the answer carries it, and only where the declaration names one', () => {
    const byName = (n: string) => answer.results.find((r) => r.input.name === n)!;
    expect(byName('sourcemap-codec').successor).toEqual({ kind: 'npm', name: '@jridgewell/sourcemap-codec' });
    expect(byName('request')).not.toHaveProperty('successor');
  });

  it('table and Markdown: a successor column', () => {
    expect(table(answer)).toMatch(/npm:sourcemap-codec\s+\S+\s+npm:@jridgewell\/sourcemap-codec\n/);
    expect(table(answer)).toMatch(/npm:request\s+\S+\s+-\n/);
    const md = reviewComment(answer, 'package.json', new Map());
    expect(md).toContain('| state | observed | component | line | where | source | successor |');
    expect(md).toMatch(/\| npm:sourcemap-codec \|.*\| npm:@jridgewell\/sourcemap-codec \|/);
  });

  it('SARIF: the message names it', () => {
    const log = sarifReport(answer, { file: 'package.json', lines: new Map() }) as {
      runs: { results: { message: { text: string } }[] }[];
    };
    const texts = log.runs[0]!.results.map((r) => r.message.text);
    expect(texts.find((x) => x.startsWith('npm sourcemap-codec'))).toMatch(
      /is archived: the latest version carries a registry deprecation notice; successor: npm:@jridgewell\/sourcemap-codec\. Observed/,
    );
    expect(texts.find((x) => x.startsWith('npm request'))).not.toMatch(/successor/);
  });
});
