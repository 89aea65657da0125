/**
 * The line of each member of a JSON document's second level (`"dependencies": {"express": …}` →
 * `dependencies` + `express` → its line), for the manifests read with JSON.parse, which keeps no
 * positions. One pass over the text, string by string: no regular expression, so no backtracking,
 * and the time is linear in the text however it is nested. Run only on text JSON.parse accepted.
 */
export function memberLines(source: string, sections: readonly string[]): Map<string, number> {
  const wanted = new Set(sections);
  const lines = new Map<string, number>();
  // '{' or '[' for each open container: a string is a member name only directly inside an object.
  const open: number[] = [];
  let line = 1;
  let expectingName = false;
  let section: string | null = null;
  for (let i = 0; i < source.length; i += 1) {
    const c = source.charCodeAt(i);
    if (c === NEWLINE) line += 1;
    else if (c === QUOTE) {
      const end = stringEnd(source, i);
      if (expectingName && open.at(-1) === OPEN_OBJECT) {
        const name = memberName(source, i, end);
        if (open.length === 1) section = name;
        else if (open.length === 2 && section !== null && name !== null && wanted.has(section))
          lines.set(memberKey(section, name), line); // a repeated name keeps its last line, as JSON.parse keeps its last value
        expectingName = false;
      }
      i = end; // JSON strings hold no raw line break, so the line count stays right
    } else if (c === OPEN_OBJECT) {
      open.push(c);
      expectingName = true;
    } else if (c === OPEN_ARRAY) open.push(c);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open.pop();
    else if (c === COMMA) expectingName = open.at(-1) === OPEN_OBJECT;
  }
  return lines;
}

/** The key memberLines files a member under. */
export function memberKey(section: string, name: string): string {
  return `${section}\u0000${name}`;
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i += 1) {
    const c = source.charCodeAt(i);
    if (c === BACKSLASH) i += 1;
    else if (c === QUOTE) return i;
  }
  return source.length - 1;
}

/**
 * A member name as JSON.parse reads it, so it matches the parsed document's keys: the text between
 * the quotes as it is, or decoded by JSON.parse when it holds an escape (rare, and a slower path).
 */
function memberName(source: string, open: number, close: number): string | null {
  const inner = source.slice(open + 1, close);
  if (!inner.includes('\\')) return inner;
  try {
    return JSON.parse(source.slice(open, close + 1)) as string;
  } catch {
    return null;
  }
}
