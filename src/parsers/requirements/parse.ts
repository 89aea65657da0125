/**
 * pip requirements files: PEP 508 lines, pip's options, `-e` VCS lines and includes. A line
 * that cannot be read is reported and the rest of the file still counts, as pip-tools, osv
 * and Dependabot do: one odd line must not hide a file's other components.
 */
import { normaliseComponent } from '../../domain/component.js';
import type { ComponentKind } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';
import { directPlace } from '../direct-place.js';

const NAME = /^([A-Z0-9](?:[\w.-]*[A-Z0-9])?)\s*(?:\[[^\]]*\])?\s*/i;
// What may follow a name: nothing, a version specifier (bare or in parentheses), a marker or "@ url".
const AFTER_NAME = /^(?:$|[(<>=!~;@])/;
// Per-requirement options that carry no component (pip strips them before PEP 508 parsing).
const REQUIREMENT_OPTIONS = new Set(['--hash', '--config-settings', '--global-option', '--install-option']);
const GITHUB_VCS =
  /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com[/:]([^/\s]+)\/([^/@#\s]+?)(?:\.git)?(?:[@#/].*)?$/i;
// One separator, then the rest whole (trimmed after): `\s+(.*)$` would backtrack over a long gap.
const INCLUDE = /^(?:-r|--requirement|-c|--constraint)(?:=|\s|(?=\S))(.*)$/s;
const EDITABLE = /^(?:-e|--editable)(?:=|\s|(?=\S))(.*)$/s;
// Options that choose where packages come from or how they are built; they name no component.
const GLOBAL_OPTION =
  /^(?:-i|--index-url|--extra-index-url|--no-index|-f|--find-links|--pre|--prefer-binary|--only-binary|--no-binary|--trusted-host|--use-feature|--require-hashes|--no-deps|--upgrade-strategy|--progress-bar|--use-pep517|--no-build-isolation)(?:[=\s]|$)/;
const URL_OR_PATH = /^(?:[a-z][a-z0-9+.-]*:\/\/|file:|\.{0,2}\/|~\/|[A-Z]:\\)|\.(?:whl|tar\.gz|zip|tar\.bz2)$/i;

interface Out {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
}

export function parseRequirements(text: string): ParseResult {
  const out: Out = { references: [], unresolved: [] };
  for (const { line, text: logical } of logicalLines(text.replace(/^\uFEFF/, ''))) {
    const before = out.references.length;
    readLine(out, logical, `line ${line}`);
    for (let i = before; i < out.references.length; i += 1) out.references[i]!.line = line;
  }
  return { format: 'requirements', references: out.references, unresolved: out.unresolved };
}

/** Joins `\` continuations first and strips comments after, as pip does (pypa/pip#7780). */
function logicalLines(text: string): { line: number; text: string }[] {
  const physical = text.split(/\r\n|\r|\n/);
  const result: { line: number; text: string }[] = [];
  let start = 0;
  let buffer: string | null = null;
  physical.forEach((raw, i) => {
    if (buffer === null) start = i + 1;
    // A comment line ending in a backslash does not continue (pip's join_lines), so it cannot swallow the next requirement.
    const continued = !/^\s*#/.test(raw) && /(?:^|[^\\])(?:\\\\)*\\$/.test(raw);
    buffer = (buffer ?? '') + (continued ? raw.slice(0, -1) : raw);
    if (!continued) {
      result.push({ line: start, text: buffer });
      buffer = null;
    }
  });
  if (buffer !== null) result.push({ line: start, text: buffer });
  return result;
}

/**
 * pip's COMMENT_RE: a "#" starts a comment only at the start or after whitespace, so a URL
 * fragment such as "#egg=x" survives. One pass over the "#"s, not `(^|\s+)#.*$`, which
 * rescans a long run of spaces from each of its positions.
 */
export function withoutComment(line: string): string {
  for (let at = line.indexOf('#'); at >= 0; at = line.indexOf('#', at + 1)) {
    if (at === 0 || /\s/.test(line[at - 1] ?? '')) return line.slice(0, at);
  }
  return line;
}

/** The requirement without its per-requirement options (`--hash=…`, `--hash …`), its words joined by one space. */
function withoutRequirementOptions(line: string): string {
  // Every per-requirement option starts with `--`: without one, only the spaces change, and a
  // 2 MB line of short words is not split into a million strings to say so.
  if (!line.includes('--')) return singleSpaced(line);
  const words = line.split(/\s+/).filter((w) => w !== '');
  const kept: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const eq = word.indexOf('=');
    const option = eq < 0 ? word : word.slice(0, eq);
    if (!REQUIREMENT_OPTIONS.has(option)) kept.push(word);
    else if (eq < 0) i += 1; // `--hash VALUE`: the value is the next word
  }
  return kept.join(' ');
}

// Anything but single ASCII spaces between words: a run, a tab, a Unicode space.
const IRREGULAR_SPACE = /\s\s|[^\S ]/;
const WHITESPACE = /\s/;

function isWhitespace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && WHITESPACE.test(String.fromCharCode(c)));
}

/**
 * `line` with each whitespace run as one space and none at either end, as
 * `split(/\s+/).filter(Boolean).join(' ')` gives it, in one pass that copies only around the runs
 * that change: on a line of a million short words, `split` and `replace(/\s+/g, ' ')` cost a
 * string or a match each (half a second for 2 MB here). A line already single-spaced, as written
 * lines are, is returned as it is.
 */
function singleSpaced(line: string): string {
  if (!IRREGULAR_SPACE.test(line)) return line.trim();
  const parts: string[] = [];
  let from = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    if (!isWhitespace(c)) {
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < line.length && isWhitespace(line.charCodeAt(end))) end += 1;
    // A lone ASCII space between words stays in its segment; any other run is cut out.
    if (c !== 32 || end - i > 1 || i === 0 || end === line.length) {
      parts.push(line.slice(from, i));
      if (i > 0 && end < line.length) parts.push(' ');
      from = end;
    }
    i = end;
  }
  parts.push(line.slice(from));
  return parts.join('');
}

function readLine(out: Out, raw: string, location: string): void {
  const line = withoutComment(raw).trim();
  if (line === '') return;
  const input = line;
  const include = INCLUDE.exec(line);
  if (include) {
    out.unresolved.push({
      input,
      location,
      reason: `included file not sent: "${(include[1] ?? '').trim()}" is another file; paste it too to check what it lists.`,
    });
    return;
  }
  const editable = EDITABLE.exec(line);
  if (editable) {
    readUrl(out, (editable[1] ?? '').trim(), input, location, true);
    return;
  }
  if (GLOBAL_OPTION.test(line)) return;
  if (line.startsWith('-')) {
    out.unresolved.push({ input, location, reason: 'an option Tended does not know; it names no component.' });
    return;
  }
  if (/\$\{|\{\{|\{%/.test(line)) {
    out.unresolved.push({
      input,
      location,
      reason: 'holds a variable or template placeholder, so the requirement is known only when it is filled in.',
    });
    return;
  }
  // The input shown back is the requirement without its hashes: uv output carries dozens per line.
  const requirement = withoutRequirementOptions(line);
  if (URL_OR_PATH.test(requirement)) {
    readUrl(out, requirement, requirement, location, false);
    return;
  }
  const name = NAME.exec(requirement);
  const rest = name ? requirement.slice(name[0].length) : '';
  if (!name || !AFTER_NAME.test(rest)) {
    out.unresolved.push({
      input: requirement,
      location,
      reason: 'not a PEP 508 requirement (name, optional [extras], version specifiers, ; marker).',
    });
    return;
  }
  if (rest.startsWith('@')) {
    // `name @ url`: installed from that URL, not from PyPI, so the PyPI project's state would be the wrong answer.
    // The URL ends at the marker's `;`: cut there, not split at every `;` of a long line.
    const semicolon = rest.indexOf(';');
    const github = GITHUB_VCS.exec((semicolon < 0 ? rest.slice(1) : rest.slice(1, semicolon)).trim());
    if (github) add(out, 'github', `${github[1]}/${github[2]}`, requirement, location);
    else
      out.unresolved.push({
        input: requirement,
        location,
        reason: 'installed from a direct URL rather than from PyPI; its source cannot be identified.',
      });
    return;
  }
  add(out, 'pypi', name[1] ?? '', requirement, location);
}

/** `-e` targets and bare URLs or paths. Only an editable GitHub checkout names a component. */
function readUrl(out: Out, target: string, input: string, location: string, editable: boolean): void {
  const github = editable ? GITHUB_VCS.exec(target) : null;
  if (github) {
    add(out, 'github', `${github[1]}/${github[2]}`, input, location);
    return;
  }
  const local = !/^[a-z][a-z0-9+.-]*:\/\//i.test(target);
  out.unresolved.push({
    input,
    location,
    reason: local
      ? 'a local path, not a published package.'
      : editable
        ? 'an editable install from a source other than a GitHub repository; Tended observes GitHub repositories and PyPI projects.'
        : 'a bare URL, not a PyPI project; name the project (name @ url) or pin it from PyPI to check it.',
  });
}

function add(out: Out, kind: ComponentKind, name: string, input: string, location: string): void {
  try {
    out.references.push({ ref: normaliseComponent(kind, name), input, location, tree: directPlace() });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    out.unresolved.push({ input, location, reason: `not a valid ${kind} name: ${e.message}` });
  }
}
