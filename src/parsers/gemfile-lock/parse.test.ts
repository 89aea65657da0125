import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusRows } from '../../../test/support/corpus.js';
import { InputError } from '../reference.js';
import { looksGemfile } from '../gemfile/detect.js';
import { looksGemfileLock } from './detect.js';
import { parseGemfileLock } from './parse.js';

const LOCK = `GIT
  remote: https://github.com/Acme/Widget.git
  revision: 0123456789abcdef
  branch: main
  specs:
    widget (0.2.0)
      rack (>= 2)

GIT
  remote: https://git.example.org/private.git
  revision: abc
  specs:
    private (1.0.0)

PATH
  remote: .
  specs:
    myapp (0.1.0)
      rails (~> 7.1)

GEM
  remote: https://rubygems.org/
  specs:
    nokogiri (1.16.0-arm64-darwin)
      racc (~> 1.4)
    nokogiri (1.16.0-x86_64-linux)
      racc (~> 1.4)
    racc (1.7.3)
    rack (3.0.9)
    rails (7.1.3)
      nokogiri (>= 1.6)
      rack (>= 2.2.4)
    rspec (3.13.0)

PLATFORMS
  arm64-darwin
  x86_64-linux

DEPENDENCIES
  myapp!
  rails (~> 7.1)
  rspec
  widget!

BUNDLED WITH
   2.5.6
`;

describe('Gemfile.lock', () => {
  it('gives each rubygems.org gem its version and place, and a GitHub git gem its repository', () => {
    const r = parseGemfileLock(LOCK);
    expect(r.format).toBe('gemfile-lock');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.line, x.tree])).toEqual([
      ['github', 'acme/widget', 6, { resolvedVersion: '0.2.0', scope: 'direct', via: [] }],
      // One result for the two platform builds, the version without its platform.
      ['gem', 'nokogiri', 24, { resolvedVersion: '1.16.0', scope: 'transitive', via: ['rails'] }],
      ['gem', 'racc', 28, { resolvedVersion: '1.7.3', scope: 'transitive', via: ['rails', 'nokogiri'] }],
      // Two shortest paths (rails, widget): the first direct dependency listed gives it.
      ['gem', 'rack', 29, { resolvedVersion: '3.0.9', scope: 'transitive', via: ['rails'] }],
      ['gem', 'rails', 30, { resolvedVersion: '7.1.3', scope: 'direct', via: [] }],
      ['gem', 'rspec', 33, { resolvedVersion: '3.13.0', scope: 'direct', via: [] }],
    ]);
    expect(r.unresolved.map((u) => [u.input, u.location, u.reason])).toEqual([
      ['private (1.0.0)', 'line 13', 'a gem from a git repository on a host other than GitHub'],
      [
        'myapp (0.1.0)',
        'line 18',
        'a gem from the local path "." (the project itself or code beside it), not from rubygems.org',
      ],
    ]);
  });

  it('says which gems come from another gem server, and reads CRLF lines', () => {
    const r = parseGemfileLock(
      'GEM\r\n  remote: https://gems.example.com/\r\n  specs:\r\n    secret (1.0)\r\n\r\nDEPENDENCIES\r\n  secret!\r\n',
    );
    expect(r.references).toEqual([]);
    expect(r.unresolved).toEqual([
      {
        input: 'secret (1.0)',
        location: 'line 4',
        reason: 'a gem from the gem server "https://gems.example.com/", not rubygems.org',
      },
    ]);
  });

  it('refuses text with no Gemfile.lock section, with a sentence', () => {
    expect(() => parseGemfileLock('gem "rails"\n')).toThrow(InputError);
    expect(() => parseGemfileLock('gem "rails"\n')).toThrow(/no GEM, GIT, PATH or DEPENDENCIES section/);
  });

  it('is told from a Gemfile, and a Gemfile is not taken for it', () => {
    expect(looksGemfileLock(LOCK)).toBe(true);
    const gemfile = 'source "https://rubygems.org"\n\ngem "rails", "~> 7.1"\n';
    expect(looksGemfileLock(gemfile)).toBe(false);
    expect(looksGemfile(LOCK)).toBe(false);
  });

  const rows = corpusRows('gemfile-lock');
  it('has corpus files', () => expect(rows.length).toBeGreaterThanOrEqual(2));
  it.each(rows)('$file: expected_components distinct gems, each with a version and a place', ({ file, expected }) => {
    const r = parseGemfileLock(readFileSync(join(CORPUS, file), 'utf8'));
    expect(new Set(r.references.map((x) => `${x.ref.kind}:${x.ref.id}`)).size).toBe(expected);
    for (const x of r.references) {
      expect(x.tree?.resolvedVersion).toBeTruthy();
      if (x.tree?.scope === 'direct') expect(x.tree.via).toEqual([]);
      else {
        expect(x.tree?.scope).toBe('transitive');
        expect(x.tree?.via?.length).toBeGreaterThan(0);
      }
    }
  });

  it('rails: a gem only rails itself needs is reached through the local rails gems, and says so', () => {
    const r = parseGemfileLock(readFileSync(join(CORPUS, 'gemfile-lock/rails.Gemfile.lock'), 'utf8'));
    const trix = r.references.find((x) => x.ref.id === 'action_text-trix')!;
    expect(trix.tree).toMatchObject({ scope: 'transitive', via: ['rails', 'actiontext'], viaUnresolved: 'rails' });
    const rubygems = parseGemfileLock(readFileSync(join(CORPUS, 'gemfile-lock/rubygems.org.Gemfile.lock'), 'utf8'));
    // `avo-advanced (~> 3.32)!` in DEPENDENCIES: the "!" after the constraint still names a direct gem.
    expect(rubygems.references.find((x) => x.ref.id === 'ransack')?.tree?.via).toBeDefined();
  });
});
