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
