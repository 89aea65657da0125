/**
 * go.mod: each module a `require` directive names (single-line or in a block, `// indirect` ones
 * too: the build uses them). `replace` and `exclude` name no further component; a replacement
 * by a local path means the module is not fetched, but it is still what the code depends on.
 * Read line by line: the cost is linear in the file.
 */
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';

const MAX_INPUT = 200;
const INDIRECT = /\/\/\s*indirect\s*(?:;|$)/;

function withoutComment(line: string): string {
  const at = line.indexOf('//');
  return (at < 0 ? line : line.slice(0, at)).trim();
}

/** A module path as go.mod writes it: bare, or in double or back quotes. */
function unquoted(token: string): string {
  return /^(["`]).*\1$/.test(token) ? token.slice(1, -1) : token;
}

export function parseGoMod(text: string): ParseResult {
  const references: ComponentReference[] = [];
  const unresolved: UnresolvedEntry[] = [];
  let inRequire = false;
  let block: string | null = null;
  // go.mod lists the build's every module (Go 1.17+), those only other modules need marked `// indirect`.
  const require = (spec: string, line: number, indirect: boolean) => {
    const [path = '', version] = spec.split(/\s+/);
    const input = spec.slice(0, MAX_INPUT);
    const location = `line ${line}`;
    if (version === undefined) {
      unresolved.push({
        input,
        location,
        reason: 'a require line names a module path and a version; this one has no version',
      });
      return;
    }
    try {
      references.push({
        ref: normaliseComponent('golang', unquoted(path)),
        input,
        location,
        line,
        tree: indirect ? { scope: 'transitive' } : { scope: 'direct', via: [] },
      });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      unresolved.push({ input, location, reason: e.issues[0]?.msg ?? 'not a Go module path' });
    }
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = withoutComment(raw);
    if (line === '') return;
    if (block !== null) {
      if (line === ')') block = null;
      else if (inRequire) require(line, i + 1, INDIRECT.test(raw));
      return;
    }
    const verb = /^\w+/.exec(line)?.[0] ?? '';
    const rest = line.slice(verb.length).trim();
    if (rest === '(') {
      block = verb;
      inRequire = verb === 'require';
      return;
    }
    if (verb === 'require') require(rest, i + 1, INDIRECT.test(raw));
  });
  return { format: 'go-mod', references, unresolved };
}
