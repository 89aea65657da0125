/**
 * Gemfile: each `gem "name"` line (Bundler's DSL, read line by line rather than evaluated). A gem
 * from `path:` is local; one from `git:` another source, unless it is a GitHub repository
 * (`github: "owner/repo"` or a github.com URL), which names that repository.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { githubRepositoryPath } from '../github-url.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';

const GEM_LINE = /^gem[\s(]+(["'])([^"']{1,200})\1(.*)$/;
// `github: "owner/repo"` and `git: "url"`, in Ruby 1.9 or hash-rocket form.
const GITHUB_OPTION = /(?:\bgithub:|:github\s*=>)\s*(["'])([^"']{1,300})\1/;
const GIT_OPTION = /(?:\bgit:|:git\s*=>)\s*(["'])([^"']{1,300})\1/;
const PATH_OPTION = /\bpath:|:path\s*=>/;

export function parseGemfile(text: string): ParseResult {
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      const m = GEM_LINE.exec(line);
      if (!m) return;
      const [, , name = '', options = ''] = m;
      const input = line.slice(0, 200);
      const location = `line ${i + 1}`;
      let ref: ComponentRef | null = null;
      let why: string | null = null;
      try {
        const github = GITHUB_OPTION.exec(options)?.[2];
        const git = GIT_OPTION.exec(options)?.[2];
        if (github) ref = normaliseComponent('github', github);
        else if (git) {
          const repository = githubRepositoryPath(git);
          if (repository) ref = normaliseComponent('github', repository);
          else why = 'a gem from a git repository on a host other than GitHub';
        } else if (PATH_OPTION.test(options)) why = 'a gem from a local path, not from rubygems.org';
        else ref = normaliseComponent('gem', name);
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        why = e.issues[0]?.msg ?? 'not a gem name';
      }
      if (ref) references.push({ ref, input, location, line: i + 1 });
      else unresolved.push({ input, location, reason: why ?? 'not a gem' });
    });
  return { format: 'gemfile', references, unresolved };
}
