import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { parseManifest } from '../../operations/parse-submission.js';
import { looksPnpmLock } from './detect.js';
import { parsePnpmLock } from './parse.js';

const V9 = `lockfileVersion: '9.0'

importers:

  .:
    dependencies:
      glob:
        specifier: ^7.2.0
        version: 7.2.3
      lib:
        specifier: workspace:*
        version: link:packages/lib
    devDependencies:
      vite:
        specifier: ^5.0.0
        version: 5.0.0(postcss@8.4.0)

  packages/lib:
    dependencies:
      str:
        specifier: npm:string-width@^4
        version: string-width@4.2.3

packages:

  glob@7.2.3:
    resolution: {integrity: sha512-aaa}
  inflight@1.0.6:
    resolution: {integrity: sha512-bbb}
  vite@5.0.0:
    resolution: {integrity: sha512-ccc}
    engines: {node: ^18.0.0}
    os: [linux, darwin]
  postcss@8.4.0:
    resolution: {integrity: sha512-ddd}
  string-width@4.2.3:
    resolution: {integrity: sha512-eee}
  fork@1.0.0:
    resolution: {tarball: https://codeload.github.com/acme/fork/tar.gz/0123abc}

snapshots:

  glob@7.2.3:
    dependencies:
      inflight: 1.0.6
  inflight@1.0.6: {}
  vite@5.0.0(postcss@8.4.0):
    dependencies:
      postcss: 8.4.0
    optionalDependencies:
      fork: 1.0.0
  postcss@8.4.0: {}
  string-width@4.2.3: {}
  fork@1.0.0: {}
`;

const V6 = `lockfileVersion: '6.0'

dependencies:
  glob:
    specifier: ^7.2.0
    version: 7.2.3

packages:

  /glob@7.2.3:
    resolution: {integrity: sha512-aaa}
    dependencies:
      inflight: 1.0.6
    dev: false

  /inflight@1.0.6:
    resolution: {integrity: sha512-bbb}
    dev: false
`;

describe('pnpm-lock.yaml', () => {
  it('reads 9.0: importers are direct (dev from devDependencies), snapshots make the graph, aliases and links read', () => {
    const r = parsePnpmLock(V9);
    expect(r).toMatchObject({ format: 'pnpm-lock', variant: 'pnpm lockfile 9.0' });
    const tree = (id: string) => r.references.find((x) => x.ref.id === id)?.tree;
    expect(tree('glob')).toEqual({ resolvedVersion: '7.2.3', scope: 'direct', via: [] });
    expect(tree('inflight')).toEqual({ resolvedVersion: '1.0.6', scope: 'transitive', via: ['glob'] });
    expect(tree('vite')).toEqual({ resolvedVersion: '5.0.0', scope: 'direct', via: [], dev: true });
    expect(tree('postcss')).toEqual({ resolvedVersion: '8.4.0', scope: 'transitive', via: ['vite'], dev: true });
    expect(tree('string-width')).toMatchObject({ scope: 'direct' });
    expect(r.references.find((x) => x.ref.kind === 'github')?.ref.id).toBe('acme/fork');
    expect(r.unresolved.map((u) => u.location)).toEqual([
      'importers["."]',
      'importers["."].dependencies.lib',
      'importers["packages/lib"]',
    ]);
  });

  it('reads 6.0 with its dev flags and top-level sections (a single project)', () => {
    const r = parsePnpmLock(V6);
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['glob', { resolvedVersion: '7.2.3', scope: 'direct', via: [] }],
      ['inflight', { resolvedVersion: '1.0.6', scope: 'transitive', via: ['glob'] }],
    ]);
  });

  it('reads 5.4 keys (/name/version_peer)', () => {
    const r = parsePnpmLock(`lockfileVersion: 5.4

specifiers:
  a: ^1.0.0

dependencies:
  a: 1.0.0_b@2.0.0

packages:

  /a/1.0.0_b@2.0.0:
    resolution: {integrity: sha512-a}
    dependencies:
      b: 2.0.0
    dev: false

  /b/2.0.0:
    resolution: {integrity: sha512-b}
    dev: false
`);
    expect(r.references.map((x) => [x.ref.id, x.tree?.resolvedVersion, x.tree?.via])).toEqual([
      ['a', '1.0.0', []],
      ['b', '2.0.0', ['a']],
    ]);
  });

  it('says which versions it reads', () => {
    expect(() => parsePnpmLock("lockfileVersion: '3.0'\n")).toThrow(
      /lockfileVersion "3.0" is not one Tended reads \(it reads 5.x, 6.x and 9.0\)/,
    );
    expect(() => parsePnpmLock('packages: {}\n')).toThrow(/no "lockfileVersion"/);
  });

  it('is known by its name and its first line; a workflow is not taken for it', () => {
    expect(parseManifest(V9, { filename: 'pnpm-lock.yaml' }).format).toBe('pnpm-lock');
    expect(parseManifest(V9, {}).format).toBe('pnpm-lock');
    expect(looksPnpmLock('on: push\njobs: {}\n')).toBe(false);
  });

  const rows = corpusRows('pnpm-lock');
  it('has its corpus', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  for (const row of rows) {
    it(`${row.file}: ${row.expected} distinct packages, each with its version and place`, () => {
      const r = parseManifest(readFileSync(join(CORPUS, row.file), 'utf8'), { filename: 'pnpm-lock.yaml' });
      expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(row.expected);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toBeTruthy();
        expect(x.tree?.scope).toBeDefined();
        if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
        else expect(x.tree?.via?.length).toBeGreaterThan(0);
      }
    });
  }

  it('vuejs/core: real paths', () => {
    const r = parsePnpmLock(readFileSync(join(CORPUS, 'pnpm-lock/vue-core.v9.pnpm-lock.yaml'), 'utf8'));
    const tree = (input: string) => r.references.find((x) => x.input === input)?.tree;
    expect(tree('estree-walker@2.0.2')).toMatchObject({ scope: 'direct' });
    expect(tree('estree-walker@2.0.2')?.dev).toBeUndefined();
    expect(tree('postcss@8.5.25')).toMatchObject({ scope: 'transitive', via: ['vite'], dev: true });
  });
});
