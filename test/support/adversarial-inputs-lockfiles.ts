import type { AdversarialInput } from './adversarial-inputs.js';

/**
import type { AdversarialInput } from './adversarial-inputs.js';

/**
 * Hostile shapes for the lockfiles (Cargo.lock, Gemfile.lock, poetry.lock, uv.lock, Pipfile.lock),
 * each a function of a size in bytes: dependency chains as long as fit (a path 10^4–10^5 deep),
 * one package naming another again and again, cycles, a fan of extras, very long names and lines,
 * and nesting past the depth bounds. Lockfiles are read whole (no cap below the 4 MB body), so
 * each is timed at n and 4n as it is.
 */
const fill = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
/** As many of `entry(0)`, `entry(1)`… as fit in `bytes`, at least one. */
const upTo = (bytes: number, entry: (i: number) => string) => {
  const out: string[] = [];
  for (let i = 0, size = 0; i === 0 || size < bytes; i += 1) {
    const next = entry(i);
    if (i > 0 && size + next.length > bytes) break;
    out.push(next);
    size += next.length;
  }
  return out.join('');
};

const CRATES = 'registry+https://github.com/rust-lang/crates.io-index';
const UV_PYPI = 'source = { registry = "https://pypi.org/simple" }';

const CARGO_LOCK: AdversarialInput[] = [
  {
    name: 'Cargo.lock: a dependency chain as long as fits, from a workspace member',
    route: 'manifest',
    format: 'cargo-lock',
    make: (n) =>
      `version = 4\n\n[[package]]\nname = "member"\nversion = "0.1.0"\ndependencies = ["p0"]\n\n${upTo(
        n - 100,
        (i) => `[[package]]\nname = "p${i}"\nversion = "1.0.0"\nsource = "${CRATES}"\ndependencies = ["p${i + 1}"]\n\n`,
      )}`,
  },
  {
    name: 'Cargo.lock: a ring of crates, each depending on the next and the first',
    route: 'manifest',
    format: 'cargo-lock',
    make: (n) =>
      `version = 3\n\n[[package]]\nname = "member"\nversion = "0.1.0"\ndependencies = ["p0"]\n\n${upTo(
        n - 100,
        (i) =>
          `[[package]]\nname = "p${i}"\nversion = "1.0.0"\nsource = "${CRATES}"\ndependencies = ["p${i + 1}", "p0 1.0.0"]\n\n`,
      )}`,
  },
  {
    name: 'Cargo.lock: one package naming the same crate again and again',
    route: 'manifest',
    format: 'cargo-lock',
    make: (n) =>
      `version = 4\n\n[[package]]\nname = "member"\nversion = "0.1.0"\ndependencies = [${fill('"a", ', n - 200)}]\n\n[[package]]\nname = "a"\nversion = "1.0.0"\nsource = "${CRATES}"\n`,
  },
  {
    name: 'Cargo.lock: a [[package]] header thousands of tables deep',
    route: 'manifest',
    format: 'cargo-lock',
    make: (n) => `version = 4\n\n[[package${fill('.a', n - 40)}]]\nname = "x"\n`,
  },
];

const GEMFILE_LOCK: AdversarialInput[] = [
  {
    name: 'Gemfile.lock: a dependency chain as long as fits',
    route: 'manifest',
    format: 'gemfile-lock',
    make: (n) =>
      `GEM\n  remote: https://rubygems.org/\n  specs:\n${upTo(n - 100, (i) => `    g${i} (1.0)\n      g${i + 1} (>= 1)\n`)}\nDEPENDENCIES\n  g0\n`,
  },
  {
    name: 'Gemfile.lock: one gem with a million dependency lines, and DEPENDENCIES as many',
    route: 'manifest',
    format: 'gemfile-lock',
    make: (n) =>
      `GEM\n  remote: https://rubygems.org/\n  specs:\n    a (1.0)\n${fill('      a (>= 1)\n', n / 2)}\nDEPENDENCIES\n${fill('  a!\n', n / 2)}`,
  },
  {
    name: 'Gemfile.lock: one spec line of brackets and spaces, one name a whole line long',
    route: 'manifest',
    format: 'gemfile-lock',
    make: (n) =>
      `GEM\n  remote: https://rubygems.org/\n  specs:\n    a ${fill(' (', n / 2)}\n    ${fill('a', n / 2)} (1.0)\n`,
  },
  {
    name: 'Gemfile.lock: section headers over and over',
    route: 'manifest',
    format: 'gemfile-lock',
    make: (n) => fill('GIT\n  remote: https://github.com/a/b.git\n  specs:\n    b (1.0)\n', n),
  },
];

const POETRY_LOCK: AdversarialInput[] = [
  {
    name: 'poetry.lock: a dependency chain as long as fits',
    route: 'manifest',
    format: 'poetry-lock',
    make: (n) =>
      `${upTo(n - 100, (i) => `[[package]]\nname = "p${i}"\nversion = "1.0"\noptional = false\n\n[package.dependencies]\np${i + 1} = "*"\n\n`)}[metadata]\nlock-version = "2.1"\n`,
  },
  {
    name: 'poetry.lock: one package with a dependency table of distinct names',
    route: 'manifest',
    format: 'poetry-lock',
    make: (n) =>
      `[[package]]\nname = "a"\nversion = "1.0"\n\n[package.dependencies]\n${upTo(n - 100, (i) => `d${i} = "*"\n`)}\n[metadata]\nlock-version = "2.1"\n`,
  },
  {
    name: 'poetry.lock: inline tables nested deep in a dependency',
    route: 'manifest',
    format: 'poetry-lock',
    make: (n) =>
      `[[package]]\nname = "a"\nversion = "1.0"\n\n[package.dependencies]\nb = ${'{a = '.repeat(Math.floor(n / 6))}1${'}'.repeat(Math.floor(n / 6))}\n\n[metadata]\nlock-version = "2.1"\n`,
  },
];

const UV_LOCK: AdversarialInput[] = [
  {
    name: 'uv.lock: a dependency chain as long as fits, from the virtual project',
    route: 'manifest',
    format: 'uv-lock',
    make: (n) =>
      `version = 1\n\n[[package]]\nname = "app"\nsource = { virtual = "." }\ndependencies = [{ name = "p0" }]\n\n${upTo(
        n - 100,
        (i) => `[[package]]\nname = "p${i}"\nversion = "1.0"\n${UV_PYPI}\ndependencies = [{ name = "p${i + 1}" }]\n\n`,
      )}`,
  },
  {
    name: 'uv.lock: every package asks for many extras of one package, each extra asking again',
    route: 'manifest',
    format: 'uv-lock',
    make: (n) => {
      const extras = Array.from({ length: 100 }, (_, i) => `"e${i}"`).join(', ');
      const optional = Array.from({ length: 100 }, (_, i) => `e${i} = [{ name = "x", extra = [${extras}] }]`).join(
        '\n',
      );
      return `version = 1\n\n[[package]]\nname = "x"\nversion = "1.0"\n${UV_PYPI}\n\n[package.optional-dependencies]\n${optional}\n\n[[package]]\nname = "app"\nsource = { editable = "." }\ndependencies = [\n${upTo(
        n - 60_000,
        () => `  { name = "x", extra = [${extras}] },\n`,
      )}]\n`;
    },
  },
  {
    name: 'uv.lock: one name locked at thousands of versions, each depending on the next by version',
    route: 'manifest',
    format: 'uv-lock',
    make: (n) =>
      `version = 1\n\n[[package]]\nname = "app"\nsource = { virtual = "." }\ndependencies = [{ name = "a", version = "0" }]\n\n${upTo(
        n - 150,
        (i) =>
          `[[package]]\nname = "a"\nversion = "${i}"\n${UV_PYPI}\ndependencies = [{ name = "a", version = "${i + 1}" }, { name = "a" }]\n\n`,
      )}`,
  },
];

const PIPFILE_LOCK: AdversarialInput[] = [
  {
    name: 'Pipfile.lock: a million tiny entries',
    route: 'manifest',
    format: 'pipfile-lock',
    make: (n) =>
      `{"_meta":{"pipfile-spec":6,"sources":[]},"default":{${upTo(n - 80, (i) => `"p${i}":{"version":"==1"},`)}"z":{}}}`,
  },
  {
    name: 'Pipfile.lock: arrays nested deep in an entry',
    route: 'manifest',
    format: 'pipfile-lock',
    make: (n) =>
      `{"_meta":{"pipfile-spec":6},"default":{"a":{"markers":${'['.repeat(Math.floor(n / 2) - 40)}${']'.repeat(Math.floor(n / 2) - 40)}}}}`,
  },
  {
    name: 'Pipfile.lock: one name as long as the file, not a project name at its end',
    route: 'manifest',
    format: 'pipfile-lock',
    make: (n) => `{"_meta":{"pipfile-spec":6},"default":{"${fill('a-', n - 80)}!":{"version":"==1"}}}`,
  },
];

export const LOCKFILE_INPUTS: AdversarialInput[] = [
  ...CARGO_LOCK,
  ...GEMFILE_LOCK,
  ...POETRY_LOCK,
  ...UV_LOCK,
  ...PIPFILE_LOCK,
];
