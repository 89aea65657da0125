import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { looksPackageJson } from '../package-json/detect.js';
import { looksPipfileLock } from './detect.js';
import { parsePipfileLock } from './parse.js';

const LOCK = JSON.stringify(
  {
    _meta: {
      hash: { sha256: '0' },
      'pipfile-spec': 6,
      requires: { python_version: '3.11' },
      sources: [
        { name: 'pypi', url: 'https://pypi.org/simple', verify_ssl: true },
        { name: 'internal', url: 'https://pypi.internal.example/simple', verify_ssl: true },
      ],
    },
    default: {
      Requests: { hashes: ['sha256:0'], index: 'pypi', version: '==2.32.3' },
      'charset-normalizer': { version: '==3.4.0' },
      secret: { index: 'internal', version: '==1.0.0' },
      fork: { git: 'https://github.com/acme/fork.git', ref: '0123abcd' },
      elsewhere: { git: 'https://gitlab.com/acme/elsewhere.git', ref: 'abc' },
      mine: { editable: true, path: '.' },
      wheel: { file: 'https://example.com/wheel-1.0-py3-none-any.whl' },
    },
    develop: {
      pytest: { version: '==8.3.3' },
      requests: { version: '==2.32.3' },
    },
  },
  null,
  4,
);

describe('Pipfile.lock', () => {
  it('gives each pinned PyPI package its version, develop as dev, and no scope (the file keeps no graph)', () => {
    const r = parsePipfileLock(LOCK, { lines: true });
    expect(r.format).toBe('pipfile-lock');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.input, x.location, x.tree])).toEqual([
      ['pypi', 'requests', 'Requests==2.32.3', 'default["Requests"]', { resolvedVersion: '2.32.3' }],
      [
        'pypi',
        'charset-normalizer',
        'charset-normalizer==3.4.0',
        'default["charset-normalizer"]',
        { resolvedVersion: '3.4.0' },
      ],
      ['github', 'acme/fork', 'fork', 'default["fork"]', undefined],
      ['pypi', 'pytest', 'pytest==8.3.3', 'develop["pytest"]', { resolvedVersion: '8.3.3', dev: true }],
      ['pypi', 'requests', 'requests==2.32.3', 'develop["requests"]', { resolvedVersion: '2.32.3', dev: true }],
    ]);
    expect(r.references[0]!.line).toBe(LOCK.split('\n').findIndex((l) => l.includes('"Requests"')) + 1);
    expect(r.unresolved.map((u) => [u.input, u.reason])).toEqual([
      ['secret==1.0.0', 'from the package index "https://pypi.internal.example/simple", not PyPI'],
      ['elsewhere', 'a package from a git repository on a host other than GitHub'],
      ['mine', 'local code (a path), not a package from PyPI'],
      ['wheel', 'a package from a file or URL, not from PyPI'],
    ]);
  });

  it('refuses another pipfile-spec, and JSON that is no Pipfile.lock, with a sentence', () => {
    expect(() => parsePipfileLock('{"_meta":{"pipfile-spec":5}}')).toThrow(
      /pipfile-spec 5 is not one Tended reads \(it reads 6\)/,
    );
    expect(() => parsePipfileLock('{"default":{}}')).toThrow(/has no "_meta"/);
    expect(() => parsePipfileLock('{"_meta":')).toThrow(/not valid JSON/);
  });

  it('is told from a package.json, which would otherwise take it (sources have a name, entries a version)', () => {
    expect(looksPipfileLock(LOCK)).toBe(true);
    expect(looksPackageJson(LOCK)).toBe(true);
    expect(looksPipfileLock('{"name":"x","version":"1.0.0","dependencies":{}}')).toBe(false);
  });

  const rows = corpusRows('pipfile-lock');
  it('has corpus files', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows)(
    '$file: expected_components distinct packages, each with a version, develop ones dev',
    ({ file, expected }) => {
      const r = parsePipfileLock(readFileSync(join(CORPUS, file), 'utf8'), { lines: true });
      expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(expected);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toMatch(/^\d/);
        expect(x.tree?.scope).toBeUndefined();
        expect(x.line).toBeGreaterThan(0);
        expect(Boolean(x.tree?.dev)).toBe(x.location.startsWith('develop'));
      }
    },
  );
});
