import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../test/support/corpus.js';
import { formatOfFilename, parseManifest } from './parse-submission.js';

describe('lockfiles are known by their file name, and by their content when unnamed', () => {
  it.each([
    ['Cargo.lock', 'cargo-lock'],
    ['crates/x/Cargo.toml', 'cargo-toml'],
    ['cargo.lock', 'cargo-lock'],
    ['Gemfile.lock', 'gemfile-lock'],
    ['gemfiles/rails_7.gemfile.lock', 'gemfile-lock'],
    ['Gemfile', 'gemfile'],
    ['rails_7.gemfile', 'gemfile'],
    ['poetry.lock', 'poetry-lock'],
    ['backend/uv.lock', 'uv-lock'],
    ['Pipfile.lock', 'pipfile-lock'],
    ['yarn.lock', 'yarn-lock'],
    ['README.lock', null],
  ])('%s → %s', (filename, format) => {
    expect(formatOfFilename(filename)).toBe(format);
  });

  it.each([
    ['cargo-lock/ruff.Cargo.lock', 'cargo-lock'],
    ['gemfile-lock/rails.Gemfile.lock', 'gemfile-lock'],
    ['poetry-lock/textual-lock-1.1.poetry.lock', 'poetry-lock'],
    ['poetry-lock/poetry.poetry.lock', 'poetry-lock'],
    ['uv-lock/pydantic.uv.lock', 'uv-lock'],
    ['pipfile-lock/pipenv.Pipfile.lock', 'pipfile-lock'],
  ])('%s pasted without a name is read as %s', (file, format) => {
    expect(parseManifest(readFileSync(join(CORPUS, file), 'utf8'), {}).format).toBe(format);
  });

  it('a Cargo.toml, a Gemfile and a package.json are still read as themselves', () => {
    expect(parseManifest('[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n', {}).format).toBe('cargo-toml');
    expect(parseManifest('source "https://rubygems.org"\ngem "rails"\n', {}).format).toBe('gemfile');
    expect(parseManifest('{"name":"x","version":"1.0.0","dependencies":{"a":"1"}}', {}).format).toBe('package-json');
  });
});
