import { describe, expect, it } from 'vitest';
import { InputError } from '../reference.js';
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
});
