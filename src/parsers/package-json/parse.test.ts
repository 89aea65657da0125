import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles, expected, throwsOnlyInputError } from '../../../test/support/corpus.js';
import { stringMatching } from '../../../test/support/matchers.js';
import { InputError, TooComplexError } from '../reference.js';
import type { ParseResult } from '../reference.js';
import { parsePackageJson } from './parse.js';
import { looksPackageJson } from './detect.js';

const files = corpusFiles('package-json');

const distinct = (r: ParseResult): Set<string> => new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`));

describe('parsePackageJson on the corpus', () => {
  it('has package.json files', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s gives its MANIFEST.tsv count', (file) => {
    const want = expected.get(file);
    expect(want, `${file} missing from MANIFEST.tsv`).toBeTypeOf('number');
    const text = readFileSync(join(CORPUS, file), 'utf8');
    expect(looksPackageJson(text)).toBe(true);
    const r = parsePackageJson(text);
    expect(distinct(r).size).toBe(want);
    expect(r.unresolved).toEqual([]);
  });

  it('renovate: the catalog: specs are components named by their keys', () => {
    const r = parsePackageJson(readFileSync(join(CORPUS, 'package-json/renovate.package.json'), 'utf8'));
    const catalog = r.references.filter((x) => x.input.endsWith('catalog:'));
    expect(catalog.map((x) => x.ref.id).sort()).toEqual(['esbuild', 'tar', 'vite']);
    expect(r.references.filter((x) => x.location.startsWith('optionalDependencies.'))).toHaveLength(2);
  });
});

const pkg = (deps: Record<string, unknown>, section = 'dependencies'): string =>
  JSON.stringify({ name: 'x', [section]: deps });

describe('parsePackageJson edge cases', () => {
  const cases: [string, string, [string, string][], number][] = [
    ['range', pkg({ express: '^4.18.0' }), [['npm', 'express']], 0],
    ['scoped', pkg({ '@babel/core': '7.0.0' }), [['npm', '@babel/core']], 0],
    ['legacy capitals kept', pkg({ JSONStream: '1.3.5' }), [['npm', 'JSONStream']], 0],
    ['dist-tag', pkg({ typescript: 'latest' }), [['npm', 'typescript']], 0],
    [
      'star and empty',
      pkg({ a: '*', b: '' }),
      [
        ['npm', 'a'],
        ['npm', 'b'],
      ],
      0,
    ],
    ['npm: alias names the real package', pkg({ 'my-lodash': 'npm:lodash@^4' }), [['npm', 'lodash']], 0],
    ['scoped alias', pkg({ x: 'npm:@scope/real@1' }), [['npm', '@scope/real']], 0],
    ['user/repo#tag', pkg({ x: 'User/Repo#v1' }), [['github', 'user/repo']], 0],
    ['github:', pkg({ x: 'github:o/r#semver:^1' }), [['github', 'o/r']], 0],
    ['git+https github', pkg({ x: 'git+https://github.com/o/r.git#abc' }), [['github', 'o/r']], 0],
    ['other git host', pkg({ x: 'git+https://gitlab.com/o/r.git' }), [], 1],
    ['file:', pkg({ x: 'file:../x' }), [], 1],
    ['link:', pkg({ x: 'link:../x' }), [], 1],
    ['relative path', pkg({ x: './vendor/x' }), [], 1],
    ['tarball URL', pkg({ x: 'https://example.com/x-1.0.0.tgz' }), [], 1],
    ['workspace: is local', pkg({ '@me/lib': 'workspace:*' }), [], 1],
    ['workspace: with a range is local', pkg({ lodash: 'workspace:^4.0.0' }), [], 1],
    ['catalog:', pkg({ vite: 'catalog:' }), [['npm', 'vite']], 0],
    ['devDependencies', pkg({ vitest: '^4' }, 'devDependencies'), [['npm', 'vitest']], 0],
    ['optionalDependencies', pkg({ fsevents: '^2' }, 'optionalDependencies'), [['npm', 'fsevents']], 0],
    ['peerDependencies', pkg({ react: '>=18' }, 'peerDependencies'), [['npm', 'react']], 0],
    ['non-string version', pkg({ x: 1 }), [], 1],
    ['invalid name', pkg({ '.hidden': '1.0.0' }), [], 1],
    ['section not an object', JSON.stringify({ dependencies: ['a'] }), [], 1],
    ['no sections', JSON.stringify({ name: 'x', version: '1.0.0' }), [], 0],
  ];
  it.each(cases)('%s', (_n, text, refs, unresolved) => {
    const r = parsePackageJson(text);
    expect(r.format).toBe('package-json');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id])).toEqual(refs);
    expect(r.unresolved).toHaveLength(unresolved);
  });

  it('a workspace: package is unresolved with its reason, never the public package of that name', () => {
    const r = parsePackageJson(pkg({ lodash: 'workspace:*', vite: 'catalog:' }));
    expect(r.references.map((x) => x.ref.id)).toEqual(['vite']);
    expect(r.unresolved).toEqual([
      {
        input: 'lodash: workspace:*',
        location: 'dependencies.lodash',
        reason: stringMatching(/workspace.*local files.*not the published package/),
      },
    ]);
  });

  it('a name in several sections is kept once per section, one distinct component', () => {
    const r = parsePackageJson(JSON.stringify({ dependencies: { a: '1' }, peerDependencies: { a: '>=1' } }));
    expect(r.references.map((x) => x.location)).toEqual(['dependencies.a', 'peerDependencies.a']);
    expect(distinct(r).size).toBe(1);
  });

  it('input and location', () => {
    const r = parsePackageJson(pkg({ express: '^4.18.0' }, 'devDependencies'));
    expect(r.references[0]).toMatchObject({ input: 'express: ^4.18.0', location: 'devDependencies.express' });
  });

  it.each([
    ['truncated', '{"dependencies": {"a": "1"', /line 1/],
    ['bad token', '{\n  "a": 1,\n}', /line 3/],
    ['an array', '[1, 2]', /object/],
    ['a string', '"x"', /object/],
  ])('%s is an InputError with a position', (_n, text, msg) => {
    expect(() => parsePackageJson(text)).toThrow(InputError);
    expect(() => parsePackageJson(text)).toThrow(msg);
  });

  it('detects package.json and not SBOMs', () => {
    expect(looksPackageJson('{"dependencies": {}}')).toBe(true);
    expect(looksPackageJson('{"name": "a", "version": "1.0.0"}')).toBe(true);
    expect(looksPackageJson('{"bomFormat": "CycloneDX", "name": "a", "version": "1"}')).toBe(false);
    expect(looksPackageJson('FROM node\n')).toBe(false);
  });
});

describe('parsePackageJson properties', () => {
  it('arbitrary strings throw nothing but InputError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => throwsOnlyInputError(() => parsePackageJson(s))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 30 }), fc.oneof(fc.string({ maxLength: 60 }), fc.jsonValue())),
        (deps) => throwsOnlyInputError(() => parsePackageJson(pkg(deps))),
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => throwsOnlyInputError(() => parsePackageJson(JSON.stringify(v) ?? ''))),
      { numRuns: 200 },
    );
  });
  it('refuses JSON nested past 256 levels, even under a key it does not read', () => {
    const deep = `{"config":${'{"a":'.repeat(300)}1${'}'.repeat(300)},"dependencies":{"a":"^1"}}`;
    expect(() => parsePackageJson(deep)).toThrow(TooComplexError);
    expect(() => parsePackageJson(deep)).toThrow(/Tended reads JSON up to 256 levels deep/);
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
          throwsOnlyInputError(() => parsePackageJson(text));
        },
      ),
      { numRuns: 200 },
    );
  });
});
