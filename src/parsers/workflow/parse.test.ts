import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles, expected, throwsOnlyInputError } from '../../../test/support/corpus.js';
import { InputError, TooComplexError } from '../reference.js';
import type { ParseResult } from '../reference.js';
import { MAX_WORKFLOW_BYTES, parseWorkflow } from './parse.js';
import { looksWorkflow } from './detect.js';

const files = corpusFiles('workflow');

/** The corpus counting rule: distinct owner/repo@ref pairs (subpath ignored) plus distinct images. */
function countingKeys(r: ParseResult): Set<string> {
  return new Set(
    r.references.map((x) =>
      x.ref.kind === 'github'
        ? `github:${x.ref.id}@${x.input.slice(x.input.lastIndexOf('@') + 1)}`
        : `${x.ref.kind}:${x.ref.id}`,
    ),
  );
}

describe('parseWorkflow on the corpus', () => {
  it('has workflow files', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s gives its MANIFEST.tsv count', (file) => {
    const want = expected.get(file);
    expect(want, `${file} missing from MANIFEST.tsv`).toBeTypeOf('number');
    const text = readFileSync(join(CORPUS, file), 'utf8');
    expect(looksWorkflow(text)).toBe(true);
    expect(countingKeys(parseWorkflow(text)).size).toBe(want);
  });

  it('renovate-build.yml skips its 17 local uses and keeps every occurrence', () => {
    const r = parseWorkflow(readFileSync(join(CORPUS, 'workflow/renovate-build.yml'), 'utf8'));
    expect(r.unresolved.filter((u) => u.reason.includes('local'))).toHaveLength(17);
    expect(r.references.length + r.unresolved.length).toBe(58);
    expect(
      r.references.some(
        (x) =>
          x.ref.id ===
          'docker.io/rhysd/actionlint:1.7.12@sha256:b1934ee5f1c509618f2508e6eb47ee0d3520686341fec936f3b79331f9315667',
      ),
    ).toBe(true);
  });

  it('fixture workflow_1 reads `uses :`, container and services forms', () => {
    const r = parseWorkflow(readFileSync(join(CORPUS, 'workflow/renovate-fixture-workflow_1.yml'), 'utf8'));
    expect(r.references.filter((x) => x.ref.kind === 'docker')).toHaveLength(6);
    expect(r.references.map((x) => x.location)).toContain('jobs.container-job.services.postgres (line 39)');
    expect(r.references.map((x) => x.location)).toContain(
      'jobs.container-job-with-image-keyword.container.image (line 43)',
    );
  });
});

const wf = (steps: string, extra = ''): string => `on: push\njobs:\n  build:\n${extra}    steps:\n${steps}`;

describe('parseWorkflow edge cases', () => {
  const cases: [string, string, { kind: string; id: string; input?: string; location?: string }[], number][] = [
    [
      'owner/repo@ref',
      wf('      - uses: actions/checkout@v4\n'),
      [
        {
          kind: 'github',
          id: 'actions/checkout',
          input: 'actions/checkout@v4',
          location: 'jobs.build.steps[0].uses (line 5)',
        },
      ],
      0,
    ],
    [
      'subpath dropped, ref kept',
      wf('      - uses: actions/cache/restore@abc123\n'),
      [{ kind: 'github', id: 'actions/cache', input: 'actions/cache/restore@abc123' }],
      0,
    ],
    ['case folded', wf('      - uses: Actions/Checkout@main\n'), [{ kind: 'github', id: 'actions/checkout' }], 0],
    [
      'SHA with comment',
      wf('      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v4.2.2\n'),
      [{ kind: 'github', id: 'actions/checkout', input: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1' }],
      0,
    ],
    ['quoted', wf('      - uses: "actions/setup-node@v4"\n'), [{ kind: 'github', id: 'actions/setup-node' }], 0],
    [
      'reusable workflow',
      'on: push\njobs:\n  call:\n    uses: octo/wf/.github/workflows/x.yml@v1\n',
      [{ kind: 'github', id: 'octo/wf', location: 'jobs.call.uses (line 4)' }],
      0,
    ],
    ['local skipped', wf('      - uses: ./.github/actions/setup\n'), [], 1],
    ['local reusable skipped', 'on: push\njobs:\n  call:\n    uses: ./.github/workflows/x.yml\n', [], 1],
    ['no ref', wf('      - uses: actions/checkout\n'), [], 1],
    ['expression', wf('      - uses: ${{ matrix.action }}\n'), [], 1],
    [
      'docker:// with registry port',
      wf('      - uses: docker://localhost:5000/img:1\n'),
      [{ kind: 'docker', id: 'localhost:5000/img:1' }],
      0,
    ],
    [
      'docker:// untagged is latest',
      wf('      - uses: docker://alpine\n'),
      [{ kind: 'docker', id: 'docker.io/library/alpine:latest' }],
      0,
    ],
    [
      'container string',
      wf('      - run: x\n', '    container: node:18\n'),
      [{ kind: 'docker', id: 'docker.io/library/node:18', location: 'jobs.build.container (line 4)' }],
      0,
    ],
    [
      'container mapping',
      wf('      - run: x\n', '    container:\n      image: ghcr.io/o/i:1\n'),
      [{ kind: 'docker', id: 'ghcr.io/o/i:1' }],
      0,
    ],
    ['container expression', wf('      - run: x\n', '    container: ${{ matrix.image }}\n'), [], 1],
    [
      'services both forms',
      wf('      - run: x\n', '    services:\n      a: redis:7\n      b:\n        image: postgres:16\n'),
      [
        { kind: 'docker', id: 'docker.io/library/redis:7' },
        { kind: 'docker', id: 'docker.io/library/postgres:16' },
      ],
      0,
    ],
    [
      'YAML anchors',
      'on: push\njobs:\n  a:\n    steps:\n      - &co\n        uses: actions/checkout@v4\n  b:\n    steps:\n      - *co\n',
      [
        { kind: 'github', id: 'actions/checkout' },
        { kind: 'github', id: 'actions/checkout' },
      ],
      0,
    ],
    [
      'parallel groups flattened',
      wf('      - parallel:\n          - uses: a/b@v1\n          - uses: c/d@v2\n'),
      [
        { kind: 'github', id: 'a/b' },
        { kind: 'github', id: 'c/d' },
      ],
      0,
    ],
    [
      'composite action.yml',
      'runs:\n  using: composite\n  steps:\n    - uses: actions/setup-go@v5\n',
      [{ kind: 'github', id: 'actions/setup-go' }],
      0,
    ],
    [
      'duplicates kept',
      wf('      - uses: a/b@v1\n      - uses: a/b@v1\n'),
      [
        { kind: 'github', id: 'a/b' },
        { kind: 'github', id: 'a/b' },
      ],
      0,
    ],
    ['bad owner unresolved', wf('      - uses: -bad/x@v1\n'), [], 1],
    ['non-string uses', wf('      - uses: [a]\n'), [], 1],
  ];
  it.each(cases)('%s', (_name, text, refs, unresolved) => {
    const r = parseWorkflow(text);
    expect(r.format).toBe('workflow');
    expect(r.references).toHaveLength(refs.length);
    refs.forEach((want, i) =>
      expect(r.references[i]).toMatchObject({
        ref: { kind: want.kind, id: want.id },
        ...(want.input ? { input: want.input } : {}),
        ...(want.location ? { location: want.location } : {}),
      }),
    );
    expect(r.unresolved).toHaveLength(unresolved);
    for (const u of r.unresolved) expect(u.reason.length).toBeGreaterThan(10);
  });

  it.each([
    ['malformed YAML', 'on: push\njobs:\n  a: [\n', /line/],
    ['a scalar document', 'hello', /mapping/],
    ['no jobs', 'on: push\nname: x\n', /jobs/],
    ['duplicate keys', 'jobs:\n  a: {}\n  a: {}\n', /line 3/],
  ])('%s is an InputError', (_n, text, msg) => {
    expect(() => parseWorkflow(text)).toThrow(InputError);
    expect(() => parseWorkflow(text)).toThrow(msg);
  });

  it('an alias bomb is refused, not expanded', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
      'jobs: {}',
    ].join('\n');
    expect(() => parseWorkflow(bomb)).toThrow(TooComplexError);
    expect(() => parseWorkflow(bomb)).toThrow(/aliases add 1,234,567,800 nodes to the 111 it writes/);
  });

  it('follows aliases once each, and refuses those that repeat more than the file writes', () => {
    const job = (i: number) => `  j${i}: { runs-on: x, steps: *s }\n`;
    const aliased = (jobs: number) =>
      `on: push\njobs:\n  j0:\n    steps: &s\n${'      - uses: a/b@v1\n'.repeat(5_000)}${Array.from({ length: jobs }, (_, i) => job(i + 1)).join('')}`;
    // Once more than the 15,000 nodes written: every job's steps are read.
    expect(parseWorkflow(aliased(1)).references).toHaveLength(10_000);
    expect(() => parseWorkflow(aliased(99))).toThrow(TooComplexError);
    expect(() => parseWorkflow(aliased(99))).toThrow(
      /aliases add 1,485,000 nodes to the 15,\d+ it writes \(\*s at line 5005 alone repeats 15,001\)/,
    );
    // `<<` merges nothing (YAML 1.2, and GitHub), but what its alias repeats still counts.
    const merged = `on: push\nbase: &b\n  steps:\n${'    - uses: a/b@v1\n'.repeat(5_000)}jobs:\n${Array.from({ length: 50 }, (_, i) => `  j${i}: { <<: *b }\n`).join('')}`;
    expect(() => parseWorkflow(merged)).toThrow(TooComplexError);
  });

  it('refuses an alias inside the node it names, one that names no anchor, and more than 1,000 of either', () => {
    expect(() => parseWorkflow('jobs:\n  a:\n    steps: &s\n      - parallel: *s\n')).toThrow(
      /alias \*s \(line 4\) is inside the node it names/,
    );
    expect(() => parseWorkflow('jobs:\n  a:\n    steps: *s\n')).toThrow(/line 3: the alias \*s names no anchor/);
    const uses = (n: number) => `on: push\nx: &x {uses: a/b@v1}\njobs:\n  a:\n    steps:\n${'      - *x\n'.repeat(n)}`;
    expect(parseWorkflow(uses(1_000)).references).toHaveLength(1_000);
    expect(() => parseWorkflow(uses(1_001))).toThrow(/more than 1,000 YAML aliases/);
    const anchors = (n: number) =>
      `on: push\njobs:\n  a:\n    steps:\n${Array.from({ length: n }, (_, i) => `      - &a${i} {uses: a/b@v1}\n`).join('')}`;
    expect(parseWorkflow(anchors(1_000)).references).toHaveLength(1_000);
    expect(() => parseWorkflow(anchors(1_001))).toThrow(/more than 1,000 YAML anchors/);
  });

  it(`reads a file of ${MAX_WORKFLOW_BYTES / 1024} KB, more than GitHub runs, and refuses a larger one before parsing it`, () => {
    const steps = (n: number) => `on: push\njobs:\n  a:\n    steps:\n${'      - uses: a/b@v1\n'.repeat(n)}`;
    expect(parseWorkflow(steps((MAX_WORKFLOW_BYTES - 100) / 21)).references).toHaveLength(24_961);
    const big = steps(MAX_WORKFLOW_BYTES / 20);
    const started = performance.now();
    expect(() => parseWorkflow(big)).toThrow(TooComplexError);
    expect(() => parseWorkflow(big)).toThrow(
      /it is 538 KB, and GitHub runs no workflow file over 500 KB; Tended reads workflow and action files up to 512 KB\.$/,
    );
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('detects workflows and not other formats', () => {
    expect(looksWorkflow('on:\n  push:\njobs:\n  a: {}\n')).toBe(true);
    expect(looksWorkflow('FROM node:18\n')).toBe(false);
    expect(looksWorkflow('{"jobs": 1}')).toBe(false);
    expect(looksWorkflow('requests==2.0\n')).toBe(false);
  });
});

describe('parseWorkflow properties', () => {
  it('arbitrary strings throw nothing but InputError', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (s) => throwsOnlyInputError(() => parseWorkflow(s))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) =>
        throwsOnlyInputError(() => parseWorkflow(`jobs:\n  a:\n    steps:\n      - uses: ${s}\n`)),
      ),
      { numRuns: 300 },
    );
  });
  it('mutated corpus files throw nothing but InputError', () => {
    const bytes = files.map((f) => readFileSync(join(CORPUS, f)));
    fc.assert(
      fc.property(
        fc.nat(bytes.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 8 }),
        fc.option(fc.nat()),
        (fi, flips, cut) => {
          const b = Buffer.from(bytes[fi] ?? Buffer.alloc(0));
          for (const [pos, v] of flips) if (b.length > 0) b[pos % b.length] = v;
          const text = new TextDecoder().decode(cut === null ? b : b.subarray(0, cut % (b.length + 1)));
          throwsOnlyInputError(() => parseWorkflow(text));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('parseWorkflow: place in the tree', () => {
  it('every action and image a workflow names is direct', () => {
    const r = parseWorkflow(
      'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    container: node:20\n    steps:\n      - uses: actions/checkout@v4\n',
    );
    expect(r.references.length).toBe(2);
    for (const x of r.references) expect(x.tree).toEqual({ scope: 'direct', via: [] });
  });
});
