/**
 * yarn.lock of Yarn 1 ("# yarn lockfile v1"): its own indented text, read a line at a time
 * (no regular expression runs over a line's content):
 *
 *   "@scope/a@^1.0.0", "@scope/a@^1.1.0":
 *     version "1.2.0"
 *     resolved "https://registry.yarnpkg.com/@scope/a/-/a-1.2.0.tgz#…"
 *     dependencies:
 *       b "^2.0.0"
 *
 * Each entry is keyed by the descriptors (`name@range`) it satisfies.
 */
import { InputError } from '../reference.js';

export interface YarnEntry {
  descriptors: string[];
  version: string | undefined;
  /** `resolved` (Yarn 1) or `resolution` (Yarn 2+). */
  resolved: string | undefined;
  /** name → range of `dependencies` and `optionalDependencies`. */
  needs: [string, string][];
  line: number;
}

export function readClassic(text: string): YarnEntry[] {
  const entries: YarnEntry[] = [];
  let entry: YarnEntry | undefined;
  let section: string | undefined;
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    lineNo += 1;
    let indent = 0;
    while (raw[indent] === ' ') indent += 1;
    const line = raw.slice(indent);
    if (line === '' || line[0] === '#') continue;
    if (indent === 0) {
      if (!line.endsWith(':')) throw notClassic(lineNo, 'an entry starts with its descriptors and a colon');
      entry = {
        descriptors: descriptorsOf(line.slice(0, -1)),
        version: undefined,
        resolved: undefined,
        needs: [],
        line: lineNo,
      };
      entries.push(entry);
      section = undefined;
      continue;
    }
    if (entry === undefined) throw notClassic(lineNo, 'an indented line comes before any entry');
    const [key, rest] = token(line);
    if (indent <= 2) {
      section = undefined;
      if (rest === '' && key.endsWith(':')) section = key.slice(0, -1);
      else if (key === 'version') entry.version = token(rest)[0];
      else if (key === 'resolved') entry.resolved = token(rest)[0];
      continue;
    }
    if (section === 'dependencies' || section === 'optionalDependencies') entry.needs.push([key, token(rest)[0]]);
  }
  return entries;
}

/** `"a@^1", a@^2` → [`a@^1`, `a@^2`]. */
function descriptorsOf(header: string): string[] {
  const out: string[] = [];
  for (const part of header.split(',')) {
    const t = part.trim();
    out.push(t.length >= 2 && t[0] === '"' && t.endsWith('"') ? t.slice(1, -1) : t);
  }
  return out;
}

/** The first token of `s` (a quoted string, or up to the first space) and what follows it. */
function token(s: string): [string, string] {
  if (s[0] === '"') {
    let i = 1;
    while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
    return [s.slice(1, i).replaceAll('\\"', '"'), s.slice(i + 1).trimStart()];
  }
  const space = s.indexOf(' ');
  return space < 0 ? [s, ''] : [s.slice(0, space), s.slice(space + 1).trimStart()];
}

function notClassic(line: number, what: string): InputError {
  return new InputError(`not a readable yarn.lock at line ${line}: ${what}.`);
}
