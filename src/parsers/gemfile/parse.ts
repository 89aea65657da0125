/**
 * Gemfile: each `gem "name"` line (Bundler's DSL, read line by line rather than evaluated). A gem
 * from `path:` is local; one from `git:` another source, unless it is a GitHub repository
 * (`github: "owner/repo"` or a github.com URL), which names that repository. Each gem is direct;
 * dev when every group it is in is :development or :test (a `group … do` block or a `group:` /
 * `groups:` option), the groups `bundle install --without development test` leaves out.
 */
import { normaliseComponent, type ComponentRef } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { githubRepositoryPath } from '../github-url.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';
import { directPlace } from '../direct-place.js';

const GEM_LINE = /^gem[\s(]+(["'])([^"']{1,200})\1(.*)$/;
// `github: "owner/repo"` and `git: "url"`, in Ruby 1.9 or hash-rocket form.
const GITHUB_OPTION = /(?:\bgithub:|:github\s*=>)\s*(["'])([^"']{1,300})\1/;
const GIT_OPTION = /(?:\bgit:|:git\s*=>)\s*(["'])([^"']{1,300})\1/;
const PATH_OPTION = /\bpath:|:path\s*=>/;
const GROUP_BLOCK = /^group[\s(](.*)\bdo\s*(?:\|[^|]*\|\s*)?$/;
// What opens a block `end` closes: a trailing `do`, or a keyword that starts a statement.
const BLOCK_OPENS = /\bdo\s*(?:\|[^|]*\|\s*)?$|^(?:if|unless|case|while|until|begin|def|class|module)\b/;
const GROUP_KEY = /(?:\bgroups?:|:groups?\s*=>)\s*/;
const GROUP_WORD = /^(?::\w+|["'][\w-]+["'])/;
// Where a group block's options that are not groups begin (`optional: true`, `platforms: …`).
const NOT_GROUPS = /\b(?:optional|platforms?)\s*:/;

/**
 * The value of a gem's `group:`/`groups:` option: `[:test, :development]`, `:test` or `"test"`.
 * Read by hand after the key, not by one pattern with a bounded repeat inside an alternation: that
 * one backtracked over every `group:[` of a hostile line (regex-safety.test.ts).
 */
function groupOption(options: string): string | undefined {
  const key = GROUP_KEY.exec(options);
  if (!key) return undefined;
  const rest = options.slice(key.index + key[0].length);
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    return close !== -1 && close <= 301 ? rest.slice(0, close + 1) : undefined;
  }
  return GROUP_WORD.exec(rest)?.[0];
}
const DEV_GROUPS = new Set(['development', 'test']);

/** True when every group named in the text (`:development, :test`, `[:test]`, `"test"`) is a dev group. */
function devGroups(text: string): boolean {
  const names = [...text.matchAll(/:?["']?(\w+)["']?/g)].map((m) => m[1]!);
  return names.length > 0 && names.every((n) => DEV_GROUPS.has(n));
}

export function parseGemfile(text: string): ParseResult {
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  // One entry per open block: whether it is a group block of dev groups only. `end` pops one; a
  // gem is dev when any enclosing block is such a group.
  const blocks: boolean[] = [];
  let devDepth = 0;
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.trim();
      const group = GROUP_BLOCK.exec(line);
      if (group) {
        const named = group[1]!;
        const cut = NOT_GROUPS.exec(named);
        const dev = devGroups(cut ? named.slice(0, cut.index) : named);
        blocks.push(dev);
        if (dev) devDepth += 1;
        return;
      }
      if (/^end\b/.test(line)) {
        if (blocks.pop() === true) devDepth -= 1;
        return;
      }
      const m = GEM_LINE.exec(line);
      if (!m) {
        if (BLOCK_OPENS.test(line) && !/\bend\s*$/.test(line)) blocks.push(false);
        return;
      }
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
      const option = groupOption(options);
      const dev = devDepth > 0 || (option !== undefined && devGroups(option));
      if (ref) references.push({ ref, input, location, line: i + 1, tree: directPlace({ dev }) });
      else unresolved.push({ input, location, reason: why ?? 'not a gem' });
    });
  return { format: 'gemfile', references, unresolved };
}
