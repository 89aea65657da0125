import { describe, expect, it } from 'vitest';
import { looksGemfile } from './detect.js';
import { parseGemfile } from './parse.js';

const GEMFILE = `source "https://rubygems.org"
ruby "3.3.0"

gem "rails", "~> 7.1"
gem 'pg', group: :production
# gem "commented-out"
group :development, :test do
  gem "rspec-rails"
end
gem "forked", github: "acme/forked"
gem "via-git", git: "https://github.com/acme/via-git.git"
gem "elsewhere", git: "https://gitlab.com/acme/elsewhere"
gem "local", path: "../local"
`;

describe('Gemfile', () => {
  it('names each gem, a GitHub source as its repository, and says why the rest are not rubygems.org gems', () => {
    const r = parseGemfile(GEMFILE);
    expect(r.format).toBe('gemfile');
    expect(r.references.map((x) => [x.ref.kind, x.ref.id, x.location])).toEqual([
      ['gem', 'rails', 'line 4'],
      ['gem', 'pg', 'line 5'],
      ['gem', 'rspec-rails', 'line 8'],
      ['github', 'acme/forked', 'line 10'],
      ['github', 'acme/via-git', 'line 11'],
    ]);
    expect(r.unresolved.map((u) => [u.location, u.reason])).toEqual([
      ['line 12', 'a gem from a git repository on a host other than GitHub'],
      ['line 13', 'a gem from a local path, not from rubygems.org'],
    ]);
  });

  it('is recognised by its source or gem lines', () => {
    expect(looksGemfile(GEMFILE)).toBe(true);
    expect(looksGemfile('requests==2.0\n')).toBe(false);
  });
});

describe('parseGemfile: place in the tree', () => {
  it('every gem is direct; dev when all its groups are :development or :test, by block or option', () => {
    const r = parseGemfile(
      [
        'source "https://rubygems.org"',
        'gem "rails", "~> 7.1"',
        'gem "rspec-rails", group: :test',
        'gem "pry", groups: [:development, :test]',
        'gem "puma", group: [:production]',
        'group :development, :test do',
        '  gem "debug", platforms: %i[ mri windows ]',
        '  if ENV["CI"]',
        '    gem "simplecov"',
        '  end',
        'end',
        'platforms :jruby do',
        '  gem "activerecord-jdbc-adapter"',
        'end',
        'group :production, :test do',
        '  gem "pg"',
        'end',
        'gem "bootsnap", require: false',
      ].join('\n'),
    );
    const dev = r.references.filter((x) => x.tree?.dev).map((x) => x.ref.id);
    expect(dev).toEqual(['rspec-rails', 'pry', 'debug', 'simplecov']);
    for (const x of r.references) expect(x.tree).toMatchObject({ scope: 'direct', via: [] });
    expect(r.references).toHaveLength(9);
  });
});
