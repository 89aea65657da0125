import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { parseManifest } from '../../operations/parse-submission.js';
import { InputError, TooComplexError } from '../reference.js';
import { looksPackageLock } from './detect.js';
import { parsePackageLock } from './parse.js';

const V3 = JSON.stringify({
  name: 'app',
  version: '1.0.0',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': {
      name: 'app',
      workspaces: ['packages/lib'],
      dependencies: { glob: '^7.2.0', lib: '*' },
      devDependencies: { fork: 'github:acme/fork' },
    },
    'node_modules/glob': {
      version: '7.2.3',
      resolved: 'https://registry.npmjs.org/glob/-/glob-7.2.3.tgz',
      dependencies: { inflight: '^1.0.4', minimatch: '^3.1.1' },
    },
    'node_modules/inflight': { version: '1.0.6', resolved: 'https://registry.npmjs.org/inflight/-/inflight-1.0.6.tgz' },
    'node_modules/minimatch': {
      version: '9.0.0',
      resolved: 'https://registry.npmjs.org/minimatch/-/minimatch-9.0.0.tgz',
    },
    'node_modules/glob/node_modules/minimatch': {
      version: '3.1.2',
      resolved: 'https://registry.npmjs.org/minimatch/-/minimatch-3.1.2.tgz',
    },
    'node_modules/lib': { resolved: 'packages/lib', link: true },
    'packages/lib': { name: 'lib', version: '0.1.0', dependencies: { minimatch: '^9' } },
    'node_modules/fork': { version: '1.0.0', resolved: 'git+ssh://git@github.com/acme/fork.git#0123abc', dev: true },
    'node_modules/tarball': { version: '1.0.0', resolved: 'https://example.com/t.tgz', dev: true },
  },
});

describe('package-lock.json', () => {
  it('reads v3: registry packages with their versions, nested copies found as Node finds them, workspaces and links not packages', () => {
    const r = parsePackageLock(V3);
    expect(r.format).toBe('package-lock');
    const byLocation = new Map(r.references.map((x) => [x.location, x]));
    expect(byLocation.get('packages["node_modules/glob"]')?.tree).toEqual({
      resolvedVersion: '7.2.3',
      scope: 'direct',
      via: [],
    });
    expect(byLocation.get('packages["node_modules/inflight"]')?.tree).toEqual({
      resolvedVersion: '1.0.6',
      scope: 'transitive',
      via: ['glob'],
    });
    // glob needs minimatch ^3.1.1: its own node_modules copy, not the hoisted 9.0.0.
    expect(byLocation.get('packages["node_modules/glob/node_modules/minimatch"]')?.tree?.via).toEqual(['glob']);
    // The hoisted 9.0.0 is what the workspace needs: a direct dependency of the project.
    expect(byLocation.get('packages["node_modules/minimatch"]')?.tree).toMatchObject({ scope: 'direct', via: [] });
    expect(byLocation.get('packages["node_modules/fork"]')?.ref).toEqual({ kind: 'github', id: 'acme/fork' });
    expect(byLocation.get('packages["node_modules/fork"]')?.tree).toMatchObject({ scope: 'direct', dev: true });
    expect(r.unresolved.map((u) => [u.location, u.reason.slice(0, 20)])).toEqual([
      ['packages[""]', 'the project itself, '],
      ['packages["packages/lib"]', 'a package of this wo'],
      ['packages["node_modules/tarball"]', 'a tarball URL, not a'],
    ]);
  });

  it('reads v1: nested dependencies and their requires, flags as written; no scope, as v1 names no direct dependencies', () => {
    const r = parsePackageLock(
      JSON.stringify({
        name: 'app',
        lockfileVersion: 1,
        requires: true,
        dependencies: {
          glob: { version: '7.2.3', requires: { minimatch: '^3' }, dependencies: { minimatch: { version: '3.1.2' } } },
          minimatch: { version: '9.0.0', dev: true },
          aliased: { version: 'npm:real-name@2.0.0' },
          local: { version: 'file:../local' },
        },
      }),
    );
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['glob', { resolvedVersion: '7.2.3' }],
      ['minimatch', { resolvedVersion: '9.0.0', dev: true }],
      ['real-name', { resolvedVersion: '2.0.0' }],
      ['minimatch', { resolvedVersion: '3.1.2' }],
    ]);
    expect(r.unresolved.map((u) => u.input)).toEqual(['local@file:../local']);
  });

  it('says which versions it reads, and refuses nesting past the bound', () => {
    expect(() => parsePackageLock('{"lockfileVersion": 4, "packages": {}}')).toThrow(
      /lockfileVersion 4 is not one Tended reads \(it reads 1–3\)/,
    );
    expect(() => parsePackageLock('{"name": "x"}')).toThrow(InputError);
    const deep = `node_modules/a${'/node_modules/a'.repeat(200)}`;
    expect(() =>
      parsePackageLock(JSON.stringify({ lockfileVersion: 3, packages: { [deep]: { version: '1.0.0' } } })),
    ).toThrow(TooComplexError);
  });

  it('is known by its file names and by its content, and package.json is not taken for it', () => {
    expect(parseManifest(V3, { filename: 'sub/npm-shrinkwrap.json' }).format).toBe('package-lock');
    expect(parseManifest(V3, {}).format).toBe('package-lock');
    expect(looksPackageLock('{"name": "x", "dependencies": {"a": "1"}}')).toBe(false);
    expect(parseManifest('{"name": "x", "version": "1.0.0", "dependencies": {"a": "1"}}', {}).format).toBe(
      'package-json',
    );
  });

  const rows = corpusRows('package-lock');
  it('has its corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  for (const row of rows) {
    it(`${row.file}: ${row.expected} distinct packages, each with its version and (v2+) its place`, () => {
      const r = parseManifest(readFileSync(join(CORPUS, row.file), 'utf8'), { filename: 'package-lock.json' });
      expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(row.expected);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toBeTruthy();
        if (row.file.includes('.v1.')) continue;
        expect(x.tree?.scope).toBeDefined();
        if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
      }
      // Most transitive packages are reached from a direct one (the rest only from what npm kept extraneous).
      if (!row.file.includes('.v1.')) {
        const transitive = r.references.filter((x) => x.tree?.scope === 'transitive');
        expect(transitive.filter((x) => (x.tree?.via?.length ?? 0) > 0).length).toBeGreaterThan(
          transitive.length * 0.9,
        );
      }
    });
  }

  it('npm/cli: real paths (a nested copy under its parent; what the workspaces need is direct)', () => {
    const r = parsePackageLock(readFileSync(join(CORPUS, 'package-lock/npm-cli.v3.package-lock.json'), 'utf8'));
    const at = (key: string) => r.references.find((x) => x.location === `packages[${JSON.stringify(key)}]`)?.tree;
    expect(at('node_modules/minipass-fetch')).toMatchObject({ resolvedVersion: '4.0.0', via: ['npm-registry-fetch'] });
    // node-gyp's make-fetch-happen finds node-gyp's own older copy first.
    expect(at('node_modules/node-gyp/node_modules/minipass-fetch')).toMatchObject({
      resolvedVersion: '3.0.5',
      via: ['node-gyp', 'make-fetch-happen'],
    });
    expect(at('node_modules/semver')).toMatchObject({ resolvedVersion: '7.6.3', scope: 'direct' });
    expect(at('node_modules/semver')?.dev).toBeUndefined();
  });
});
