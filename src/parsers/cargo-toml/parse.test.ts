import { describe, expect, it } from 'vitest';
import { InputError, TooComplexError } from '../reference.js';
import { looksCargoToml } from './detect.js';
import { parseCargoToml } from './parse.js';

const CARGO = `[package]
name = "app"
version = "0.1.0"

[dependencies]
serde = { version = "1", features = ["derive"] }
Tokio = "1.38"
renamed = { package = "serde_json", version = "1" }
local = { path = "../local" }
fork = { git = "https://github.com/acme/fork.git" }
elsewhere = { git = "https://gitlab.com/acme/x" }

[dev-dependencies]
proptest = "1"

[target.'cfg(unix)'.dependencies]
libc = "0.2"
`;

describe('Cargo.toml', () => {
  it('names each crate, the real one behind a rename, a GitHub git dependency, and says why the rest are not crates', () => {
    const r = parseCargoToml(CARGO);
    expect(r.format).toBe('cargo-toml');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.location])).toEqual([
      ['cargo', 'serde', 'dependencies.serde'],
      ['cargo', 'tokio', 'dependencies.Tokio'],
      ['cargo', 'serde_json', 'dependencies.renamed'],
      ['github', 'acme/fork', 'dependencies.fork'],
      ['cargo', 'proptest', 'dev-dependencies.proptest'],
      ['cargo', 'libc', 'target.cfg(unix).dependencies.libc'],
    ]);
    expect(r.unresolved.map((u) => [u.location, u.reason])).toEqual([
      ['dependencies.local', 'a path dependency: local code, not a crate from crates.io'],
      ['dependencies.elsewhere', 'a git dependency on a host other than GitHub'],
    ]);
  });

  it('refuses what is not TOML with the line, and is recognised by its tables', () => {
    expect(() => parseCargoToml('[package\nname = ')).toThrow(InputError);
    expect(looksCargoToml(CARGO)).toBe(true);
    expect(looksCargoToml('[tool.poetry]\n[tool.poetry.dependencies]\n')).toBe(false);
  });

  it.each([
    ['a dotted key', `[dependencies]\na${'.a'.repeat(5_000)} = "1"\n`, 2],
    ['a table header', `[dependencies${'.a'.repeat(5_000)}]\nversion = "1"\n`, 1],
    ['inline tables', `[dependencies]\na = ${'{a = '.repeat(100)}1${'}'.repeat(100)}\n`, 2],
    ['arrays', `[dependencies]\na = ${'['.repeat(100)}${']'.repeat(100)}\n`, 2],
    ['dotted keys in an inline table', `[dependencies]\na = { ${'b.'.repeat(100)}c = 1 }\n`, 2],
  ])('refuses %s nested past 64 levels before anything is serialised', (_name, text, line) => {
    expect(() => parseCargoToml(text)).toThrow(TooComplexError);
    expect(() => parseCargoToml(text)).toThrow(
      new RegExp(`more than 64 levels deep \\(line ${line}\\)\\. .*Tended reads TOML up to 64 levels deep\\.$`),
    );
  });

  it('counts no dot or bracket in a string, a quoted key or a comment, and reads 60 levels', () => {
    const text = `[dependencies]\n"a.b.c.d" = "${'.['.repeat(500)}"\nb = '''\n${'[x.y.z]\n'.repeat(100)}'''\n# ${'[.{'.repeat(500)}\nc = { version = "1", features = ["${'.'.repeat(500)}"] }\nd${'.d'.repeat(57)} = "1"\n`;
    const r = parseCargoToml(text);
    expect(r.references.map((x) => x.ref.id)).toEqual(['b', 'c', 'd']);
    expect(r.unresolved.map((u) => u.location)).toEqual(['dependencies.a.b.c.d']);
  });
});

describe('parseCargoToml: place in the tree', () => {
  it('every crate is direct; dev-dependencies are dev (in a target too), optional = true is optional', () => {
    const r = parseCargoToml(
      [
        '[dependencies]',
        'serde = { version = "1", optional = true }',
        'anyhow = "1"',
        '[dev-dependencies]',
        'proptest = "1"',
        '[build-dependencies]',
        'cc = "1"',
        "[target.'cfg(unix)'.dev-dependencies]",
        'nix = "0.28"',
      ].join('\n'),
    );
    expect(r.references.map((x) => [x.ref.id, x.tree])).toEqual([
      ['serde', { scope: 'direct', via: [], optional: true }],
      ['anyhow', { scope: 'direct', via: [] }],
      ['proptest', { scope: 'direct', via: [], dev: true }],
      ['cc', { scope: 'direct', via: [] }],
      ['nix', { scope: 'direct', via: [], dev: true }],
    ]);
  });
});
