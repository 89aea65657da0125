import { describe, expect, it } from 'vitest';
import { normaliseComponent } from '../domain/component.js';
import { parsePackageJson } from '../parsers/package-json/parse.js';
import type { ComponentReference, ParseResult } from '../parsers/reference.js';
import { lockfileOf, mergeManifestLockfile, pairsIn } from './manifest-lockfile.js';

/** A real package.json, read by the real parser with its lines. */
const manifest = parsePackageJson(
  `{
  "dependencies": {
    "glob": "^7.2.0",
    "express": "^4"
  },
  "devDependencies": { "vitest": "^4" }
}
`,
  { lines: true },
);

const ref = (name: string, line: number, tree?: ComponentReference['tree']): ComponentReference => ({
  ref: normaliseComponent('npm', name),
  input: `${name}@1.0.0`,
  location: `line ${line}`,
  line,
  ...(tree ? { tree } : {}),
});

/** A lockfile that names no scope (yarn classic, as its parser will read it): versions only. */
const scopeless: ParseResult = {
  format: 'package-json',
  references: [
    ref('glob', 10, { resolvedVersion: '7.2.3' }),
    ref('inflight', 20, { resolvedVersion: '1.0.6' }),
    ref('vitest', 30, { resolvedVersion: '4.0.1' }),
  ],
  unresolved: [{ input: 'my-workspace@0.0.0', location: 'line 40', reason: 'a workspace member' }],
};

describe('a manifest and its lockfile answer once', () => {
  it('marks the lockfile’s entries the manifest names direct (via []), the others transitive, when the lockfile does not say', () => {
    const merged = mergeManifestLockfile(manifest, scopeless, 'package.json');
    const lock = merged.references.slice(0, 3);
    expect(lock.map((r) => [r.ref.id, r.tree])).toEqual([
      ['glob', { resolvedVersion: '7.2.3', scope: 'direct', via: [] }],
      ['inflight', { resolvedVersion: '1.0.6', scope: 'transitive' }],
      ['vitest', { resolvedVersion: '4.0.1', scope: 'direct', via: [], dev: true }],
    ]);
    // The manifest's own entries follow, located in the manifest: where a person changes them.
    const own = merged.references.slice(3);
    expect(own.map((r) => [r.ref.id, r.location, r.line])).toEqual([
      ['glob', 'package.json: dependencies.glob', 3],
      ['express', 'package.json: dependencies.express', 4],
      ['vitest', 'package.json: devDependencies.vitest', 6],
    ]);
    expect(merged.unresolved).toEqual(scopeless.unresolved);
  });

  it('keeps the scope and path a lockfile gives', () => {
    const graphed: ParseResult = {
      ...scopeless,
      references: [ref('inflight', 20, { resolvedVersion: '1.0.6', scope: 'transitive', via: ['glob'] })],
    };
    const merged = mergeManifestLockfile(manifest, graphed, 'package.json');
    expect(merged.references[0]!.tree).toEqual({ resolvedVersion: '1.0.6', scope: 'transitive', via: ['glob'] });
  });

  it('pairs each manifest with the first of its lockfiles present, and nothing else', () => {
    expect(lockfileOf('package.json', ['yarn.lock', 'package-lock.json'])).toBe('package-lock.json');
    expect(lockfileOf('Cargo.toml', ['Cargo.lock'])).toBe('Cargo.lock');
    expect(lockfileOf('App.csproj', ['packages.lock.json'])).toBe('packages.lock.json');
    expect(lockfileOf('requirements.txt', ['poetry.lock'])).toBeNull();
    expect(lockfileOf('package.json', ['Gemfile.lock'])).toBeNull();
    expect([...pairsIn(['Gemfile', 'Gemfile.lock', 'go.mod', 'package.json'])]).toEqual([['Gemfile', 'Gemfile.lock']]);
    // Two project files, one lockfile: only one pair.
    expect([...pairsIn(['a.csproj', 'b.csproj', 'packages.lock.json'])]).toEqual([['a.csproj', 'packages.lock.json']]);
  });
});
