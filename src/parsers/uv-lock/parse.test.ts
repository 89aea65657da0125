import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { looksCargoLock } from '../cargo-lock/detect.js';
import { looksPoetryLock } from '../poetry-lock/detect.js';
import { looksUvLock } from './detect.js';
import { parseUvLock } from './parse.js';

const PYPI = 'source = { registry = "https://pypi.org/simple" }';
const LOCK = `version = 1
revision = 3
requires-python = ">=3.10"

[manifest]
members = ["app", "lib"]

[[package]]
name = "app"
version = "0.1.0"
source = { virtual = "." }
dependencies = [
    { name = "httpx" },
    { name = "lib" },
]

[package.optional-dependencies]
cli = [
    { name = "rich" },
]

[package.dev-dependencies]
dev = [
    { name = "pytest" },
]

[[package]]
name = "lib"
version = "0.2.0"
source = { editable = "lib" }
dependencies = [
    { name = "anyio" },
]

[package.dev-dependencies]
test = [
    { name = "coverage", extra = ["toml"] },
]

[[package]]
name = "httpx"
version = "0.27.0"
${PYPI}
dependencies = [
    { name = "anyio" },
    { name = "certifi" },
]

[[package]]
name = "anyio"
version = "4.4.0"
${PYPI}

[[package]]
name = "certifi"
version = "2024.7.4"
${PYPI}

[[package]]
name = "rich"
version = "13.7.1"
${PYPI}

[[package]]
name = "pytest"
version = "8.3.2"
${PYPI}

[[package]]
name = "coverage"
version = "7.6.0"
${PYPI}

[package.optional-dependencies]
toml = [
    { name = "tomli" },
]

[[package]]
name = "tomli"
version = "2.0.1"
${PYPI}

[[package]]
name = "fork"
version = "1.0.0"
source = { git = "https://github.com/Acme/fork?rev=main#0123abcd" }

[[package]]
name = "internal"
version = "1.0.0"
source = { registry = "https://pypi.internal.example/simple" }

[[package]]
name = "vendored"
version = "1.0.0"
source = { path = "vendor/vendored-1.0.0.tar.gz" }
`;

describe('uv.lock', () => {
  it("takes the editable and virtual projects' dependencies as the direct set: extras optional, groups dev", () => {
    const r = parseUvLock(LOCK);
    expect(r.format).toBe('uv-lock');
    const tree = new Map(r.references.map((x) => [`${x.ref.kind}:${x.ref.id}`, x.tree]));
    expect([...tree.keys()]).toEqual([
      'pypi:httpx',
      'pypi:anyio',
      'pypi:certifi',
      'pypi:rich',
      'pypi:pytest',
      'pypi:coverage',
      'pypi:tomli',
      'github:acme/fork',
    ]);
    expect(tree.get('pypi:httpx')).toEqual({ resolvedVersion: '0.27.0', scope: 'direct', via: [] });
    // Named by the workspace member lib, so direct too.
    expect(tree.get('pypi:anyio')).toEqual({ resolvedVersion: '4.4.0', scope: 'direct', via: [] });
    expect(tree.get('pypi:certifi')).toEqual({ resolvedVersion: '2024.7.4', scope: 'transitive', via: ['httpx'] });
    expect(tree.get('pypi:rich')).toEqual({ resolvedVersion: '13.7.1', scope: 'direct', via: [], optional: true });
    expect(tree.get('pypi:pytest')).toEqual({ resolvedVersion: '8.3.2', scope: 'direct', via: [], dev: true });
    // The extra a dev group asks for: its package is dev, under coverage.
    expect(tree.get('pypi:tomli')).toEqual({
      resolvedVersion: '2.0.1',
      scope: 'transitive',
      via: ['coverage'],
      dev: true,
    });
    // Nobody depends on it: listed, so transitive, but with no path; and since no direct dependency
    // reaches it, nothing says whether it is dev or optional (DependencyGraph says neither).
    expect(tree.get('github:acme/fork')).toEqual({ resolvedVersion: '1.0.0', scope: 'transitive' });
    expect(r.references[0]).toMatchObject({ input: 'httpx@0.27.0', location: '[[package]] httpx 0.27.0', line: 40 });
    expect(r.unresolved.map((u) => [u.input, u.reason])).toEqual([
      ['app@0.1.0', 'the project itself or a workspace member: local code, not a package from PyPI'],
      ['lib@0.2.0', 'the project itself or a workspace member: local code, not a package from PyPI'],
      ['internal@1.0.0', 'from the package index "https://pypi.internal.example/simple", not PyPI'],
      ['vendored@1.0.0', 'local code (a path), not a package from PyPI'],
    ]);
  });

  it("does not count a member's dev group as runtime when another member depends on that member", () => {
    const r = parseUvLock(`version = 1

[[package]]
name = "a"
source = { editable = "a" }
dependencies = [{ name = "b" }]

[[package]]
name = "b"
source = { editable = "b" }

[package.dev-dependencies]
dev = [{ name = "pytest" }]

[[package]]
name = "pytest"
version = "8.0.0"
${PYPI}
`);
    expect(r.references.map((x) => [x.ref.id, x.tree?.dev])).toEqual([['pytest', true]]);
  });

  it('refuses a version it does not read, with a sentence', () => {
    expect(() => parseUvLock('version = 2\n')).toThrow(
      /uv\.lock version 2 is not one Tended reads \(it reads version 1\)/,
    );
    expect(() => parseUvLock('[[package]]\nname = "x"\n')).toThrow(/version \(missing\)/);
  });

  it('is told from a Cargo.lock and a poetry.lock, and they are not taken for it', () => {
    expect(looksUvLock(LOCK)).toBe(true);
    expect(looksCargoLock(LOCK)).toBe(false);
    expect(looksPoetryLock(LOCK)).toBe(false);
    expect(
      looksUvLock(
        `version = 4\n\n[[package]]\nname = "a"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n`,
      ),
    ).toBe(false);
  });

  const rows = corpusRows('uv-lock');
  it('has corpus files', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows)(
    '$file: expected_components distinct packages, each with a version and a place',
    ({ file, expected }) => {
      const r = parseUvLock(readFileSync(join(CORPUS, file), 'utf8'));
      expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(expected);
      for (const x of r.references) {
        expect(x.tree?.resolvedVersion).toBeTruthy();
        expect(x.line).toBeGreaterThan(0);
        if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
        else {
          expect(x.tree?.scope).toBe('transitive');
          expect(x.tree?.via?.length).toBeGreaterThan(0);
        }
      }
    },
  );

  it('pydantic: its runtime dependencies are direct and not dev; its test tools are dev', () => {
    const r = parseUvLock(readFileSync(join(CORPUS, 'uv-lock/pydantic.uv.lock'), 'utf8'));
    const runtime = r.references.filter((x) => x.tree?.scope === 'direct' && !x.tree.dev && !x.tree.optional);
    // tzdata is the `timezone` extra, but pandas (a dev tool) needs it too: dev and optional are each
    // reckoned on their own (DependencyGraph), so something both an extra and a dev tool need is neither.
    expect(runtime.map((x) => x.ref.id).sort()).toEqual([
      'annotated-types',
      'typing-extensions',
      'typing-inspection',
      'tzdata',
    ]);
    expect(r.references.find((x) => x.ref.id === 'email-validator')?.tree).toMatchObject({
      scope: 'direct',
      optional: true,
    });
    expect(r.references.find((x) => x.ref.id === 'pytest')?.tree).toMatchObject({ scope: 'direct', dev: true });
  });
});
