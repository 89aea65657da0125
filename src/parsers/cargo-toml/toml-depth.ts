/**
 * A bound on how deep a TOML text nests, checked in one pass before smol-toml reads it. smol-toml
 * bounds its arrays and inline tables, but not dotted keys: a key or a table header 5,000
 * segments deep built a table 5,000 deep that JSON.stringify then overflowed on (a 500), and a
 * header of 500,000 segments took smol-toml a second and 250 MB.
 *
 * A value's depth is counted as the segments of its table header, then of its key, then one per
 * enclosing array, and the segments of each key inside an inline table. Strings and comments are
 * skipped, so dots and brackets in them count for nothing. The text need not be valid TOML: where
 * it is not, the count may be off, and smol-toml then says what is wrong.
 */
import { TooComplexError } from '../reference.js';

/** Far deeper than any real Cargo.toml, whose deepest value (`[target.'cfg(…)'.dependencies.x]` features) is about 6 levels down. */
export const MAX_TOML_DEPTH = 64;

/** An array, with the depth of its elements; or an inline table, with the depth its keys start from. */
interface Open {
  table: boolean;
  depth: number;
}

/** Throws a TooComplexError naming the line where `text` first nests past MAX_TOML_DEPTH. */
export function checkTomlDepth(text: string, what = 'Cargo.toml'): void {
  const open: Open[] = [];
  // 'line': at the start of a top-level line; 'key': reading a key; 'value': reading a value.
  let mode: 'line' | 'key' | 'value' = 'line';
  let header = 0; // segments of the current [table] or [[array of tables]]
  let depth = 0; // depth of the key or value being read
  const deeper = (to: number, at: number) => {
    if (to > MAX_TOML_DEPTH) {
      throw new TooComplexError(
        `its TOML nests tables, arrays and dotted keys more than ${MAX_TOML_DEPTH} levels deep (line ${lineAt(text, at)}). Real ${what} files nest fewer than 10 levels; Tended reads TOML up to ${MAX_TOML_DEPTH} levels deep.`,
      );
    }
    return to;
  };
  for (let i = 0; i < text.length;) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      if (mode === 'line') [mode, depth] = ['key', deeper(header + 1, i)];
      i = afterString(text, i);
    } else if (c === '#') i = lineEnd(text, i);
    else if (c === '\n') {
      // Inside a multi-line array (or a TOML 1.1 multi-line inline table) a line break ends nothing.
      if (open.length === 0) mode = 'line';
      i += 1;
    } else if (c === ' ' || c === '\t' || c === '\r') i += 1;
    else if (mode === 'line' && c === '[') {
      i = afterHeader(text, i, (segments) => (header = deeper(segments, i)));
      mode = 'value';
      depth = header;
    } else if (mode === 'line') [mode, depth] = ['key', deeper(header + 1, i)];
    else if (mode === 'key') {
      if (c === '.') depth = deeper(depth + 1, i);
      else if (c === '=') mode = 'value';
      else if (c === '}') depth = close(open);
      i += 1;
    } else {
      if (c === '[') {
        open.push({ table: false, depth: (depth = deeper(depth + 1, i)) });
      } else if (c === '{') {
        open.push({ table: true, depth });
        [mode, depth] = ['key', deeper(depth + 1, i)];
      } else if (c === ']' || c === '}') depth = close(open);
      else if (c === ',') {
        const inner = open[open.length - 1];
        if (inner?.table) [mode, depth] = ['key', deeper(inner.depth + 1, i)];
        else if (inner) depth = inner.depth;
      }
      i += 1;
    }
  }
}

/** Pops the innermost array or inline table; the depth is then that of the value it was. */
function close(open: Open[]): number {
  const closed = open.pop();
  if (!closed) return 0;
  return closed.table ? closed.depth : closed.depth - 1;
}

/** Past a `[a.b]` or `[[a.b]]` header, calling `segments` with its count (one more for an array of tables). */
function afterHeader(text: string, at: number, segments: (count: number) => void): number {
  const array = text[at + 1] === '[';
  let count = 1;
  let i = at + (array ? 2 : 1);
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") i = afterString(text, i);
    else if (c === ']' || c === '\n') break;
    else {
      if (c === '.') count += 1;
      i += 1;
    }
  }
  segments(count + (array ? 1 : 0));
  return i;
}

/** The index after the string opening at `at` (basic, literal, or either multi-line form). */
function afterString(text: string, at: number): number {
  const quote = text[at]!;
  if (text.startsWith(quote.repeat(3), at)) {
    let end = at + 3;
    for (;;) {
      end = text.indexOf(quote.repeat(3), end);
      if (end < 0) return text.length;
      if (quote === "'" || !escaped(text, end)) break;
      end += 1;
    }
    // Up to two quotes of the content may sit against the closing three.
    let after = end + 3;
    while (after < end + 5 && text[after] === quote) after += 1;
    return after;
  }
  for (let i = at + 1; i < text.length; i += 1) {
    const c = text[i];
    if (c === quote) return i + 1;
    if (c === '\n') return i; // unterminated: smol-toml reports it
    if (c === '\\' && quote === '"') i += 1;
  }
  return text.length;
}

/** Whether the character at `at` follows an odd run of backslashes. */
function escaped(text: string, at: number): boolean {
  let run = 0;
  while (text[at - 1 - run] === '\\') run += 1;
  return run % 2 === 1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}
