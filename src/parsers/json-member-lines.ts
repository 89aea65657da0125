/**
 * The line of each member of a JSON document's second level (`"dependencies": {"express": …}` →
 * the line of `"express"`), for the manifests read with JSON.parse, which keeps no positions. One
 * pass over the text, character by character: no regular expression, so no backtracking, and the
 * time is linear in the text however it is nested. Run only on text JSON.parse accepted.
 *
 * A member is filed under a 32-bit hash of its name, computed during the pass, rather than under
 * the name itself: a package.json of 100,000 names then allocates no string per name (the parse
 * budget of test/parse-timing.test.ts). A lookup checks the text at the filed position, so a hash
 * collision gives "line unknown", never a wrong line.
 */
export class MemberLines {
  /** Per section: name hash → index into `starts` and `lines`. */
  private readonly bySection = new Map<string, Map<number, number>>();
  /** Names written with an escape, decoded, per section: rare, kept by their text. */
  private readonly escaped = new Map<string, Map<string, number>>();
  private readonly starts: number[] = [];
  private readonly lines: number[] = [];

  constructor(
    private readonly source: string,
    sections: readonly string[],
  ) {
    this.read(new Set(sections));
  }

  /** The line `name` is on in `section`, or undefined when unknown. */
  lineOf(section: string, name: string): number | undefined {
    const at = this.bySection.get(section)?.get(hashOf(name));
    if (at !== undefined) {
      const start = this.starts[at]!;
      const end = start + 1 + name.length;
      if (this.source.startsWith(name, start + 1) && this.source.charCodeAt(end) === QUOTE) return this.lines[at];
    }
    return this.escaped.get(section)?.get(name);
  }

  private read(wanted: Set<string>): void {
    const source = this.source;
    // '{' or '[' for each open container: a string is a member name only directly inside an object.
    const open: number[] = [];
    let line = 1;
    let expectingName = false;
    let section: string | null = null;
    for (let i = 0; i < source.length; i += 1) {
      const c = source.charCodeAt(i);
      if (c === NEWLINE) line += 1;
      else if (c === QUOTE) {
        const isName = expectingName && open[open.length - 1] === OPEN_OBJECT;
        // The hash is taken on the way to the closing quote: one visit per character.
        let hash = FNV_OFFSET;
        let escapes = false;
        let end = i + 1;
        for (; end < source.length; end += 1) {
          const d = source.charCodeAt(end);
          if (d === QUOTE) break;
          if (d === BACKSLASH) {
            escapes = true;
            end += 1;
          } else hash = Math.imul(hash ^ d, FNV_PRIME);
        }
        // Kept within 30 bits: V8 keeps such numbers unboxed, and a Map keyed by them allocates nothing per key.
        hash &= SMALL;
        if (isName) {
          if (open.length === 1) section = wanted.has(decoded(source, i, end)) ? decoded(source, i, end) : null;
          else if (open.length === 2 && section !== null) this.file(section, source, i, end, escapes, hash, line);
          expectingName = false;
        }
        i = end; // JSON strings hold no raw line break, so the line count stays right
      } else if (c === OPEN_OBJECT) {
        open.push(c);
        expectingName = true;
      } else if (c === OPEN_ARRAY) open.push(c);
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open.pop();
      else if (c === COMMA) expectingName = open[open.length - 1] === OPEN_OBJECT;
    }
  }

  /** Files one member; a repeated name keeps its last line, as JSON.parse keeps its last value. */
  private file(
    section: string,
    source: string,
    start: number,
    end: number,
    escapes: boolean,
    hash: number,
    line: number,
  ): void {
    if (escapes) {
      const name = decoded(source, start, end);
      let names = this.escaped.get(section);
      if (!names) this.escaped.set(section, (names = new Map<string, number>()));
      names.set(name, line);
      return;
    }
    let hashes = this.bySection.get(section);
    if (!hashes) this.bySection.set(section, (hashes = new Map<number, number>()));
    hashes.set(hash, this.starts.length);
    this.starts.push(start);
    this.lines.push(line);
  }
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
// 32-bit FNV-1a, over UTF-16 code units.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SMALL = 0x3fffffff;

function hashOf(name: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < name.length; i += 1) hash = Math.imul(hash ^ name.charCodeAt(i), FNV_PRIME);
  return hash & SMALL;
}

/** The string between the quotes at `open` and `close` as JSON.parse reads it. */
function decoded(source: string, open: number, close: number): string {
  const inner = source.slice(open + 1, close);
  if (!inner.includes('\\')) return inner;
  try {
    return JSON.parse(source.slice(open, close + 1)) as string;
  } catch {
    return inner;
  }
}
