/**
 * Block-style YAML read straight to plain values, for big SPDX YAML. `yaml` builds a concrete
 * syntax tree and then a node per scalar (parseDocument and parse alike): a 4 MB SPDX document of
 * 21,000 packages took 2–3 s and 260 MB, on a path no option of the library skips. Its lexer alone
 * is a tenth of that, and gives each token's exact text. So the tokens are read here, a line at a
 * time, into objects and arrays, with `yaml`'s own scalar rules (the core schema, and CST
 * resolveAsScalar for quoted, folded and block scalars), giving what `parse()` would.
 *
 * Only the style SPDX tools write is read: block mappings and sequences, plain, quoted and block
 * scalars, comments, `[]` and `{}`. Anything else (anchors, aliases, tags, flow collections with
 * content, `?` keys, directives, several documents, tabs, lines `yaml` would call wrong) is
 * answered with what and where, and the caller reads the file with `yaml` instead.
 */
import { CST, Lexer } from 'yaml';
import { InputError } from './reference.js';

export type BlockYaml = { value: unknown } | { unsupported: string; line: number };

/** `yaml` refuses implicit keys longer than this. */
const MAX_KEY = 1024;

type Collection = Record<string, unknown> | unknown[];

interface Frame {
  node: Collection;
  /** The column of the frame's keys or dashes. */
  indent: number;
  /** A sequence at its parent mapping's own column (`key:\n- a`), ended by the next key there. */
  indentless: boolean;
  /** The key, or for a sequence `true`, whose value is still to come on the lines below. */
  pending?: string | true;
}

/** One line's entry: a key and maybe its value, or a dash and maybe its item (itself maybe a key). */
interface Entry {
  column: number;
  key?: string;
  value?: { set: unknown } | { block: string; indent: number };
  /** For `- key: value`: the column of the key, and the mapping entry it starts. */
  compact?: Entry;
}

class Unsupported extends Error {
  constructor(
    readonly what: string,
    readonly at: number,
  ) {
    super(what);
  }
}

export function readBlockYaml(text: string): BlockYaml {
  const reader = new Reader();
  try {
    return { value: reader.read(text) };
  } catch (e) {
    if (e instanceof Unsupported) return { unsupported: e.what, line: e.at };
    throw e;
  }
}

class Reader {
  private readonly stack: Frame[] = [];
  private root: Collection | undefined;
  private line = 1;
  /** A block scalar's header was read; its body is the next token but one. */
  private block: { header: string; indent: number; assign: (value: string) => void } | null = null;

  read(text: string): unknown {
    let tokens: string[] = [];
    let started = false;
    let inner = 0; // line breaks inside the line's multi-line scalars
    let atBody = false;
    for (const token of new Lexer().lex(text)) {
      if (token === '\u0002') continue;
      if (this.block !== null) {
        // After the header's line: the scalar marker, then the body (maybe empty), then the next line.
        if (!atBody && token === '\u001f') {
          atBody = true;
          continue;
        }
        this.resolveBlock(atBody ? token : '');
        if (atBody) {
          atBody = false;
          this.line += count(token, '\n');
          continue;
        }
      }
      if (token === '\n' || token === '\r\n') {
        started = this.entry(tokens, started);
        this.line += 1 + inner;
        tokens = [];
        inner = 0;
      } else {
        if (token.length > 1 && token.includes('\n')) inner += count(token, '\n');
        tokens.push(token);
      }
    }
    this.entry(tokens, started);
    if (this.block !== null) this.resolveBlock('');
    return this.root ?? null;
  }

  /** Reads one line's tokens; returns whether the document's content has started. */
  private entry(tokens: string[], started: boolean): boolean {
    let k = 0;
    let column = 0;
    if (isSpace(tokens[0])) {
      if (tokens[0]!.includes('\t')) this.refuse('a tab in the indentation');
      column = tokens[0]!.length;
      k = 1;
    }
    if (atEnd(tokens, k)) return started;
    if (tokens[k] === '---' && !started && column === 0 && atEnd(tokens, k + 1)) return true;
    let entry: Entry;
    if (tokens[k] === '-') entry = this.item(tokens, k + 1, column);
    else {
      const key = this.key(tokens, k);
      if (key === null) {
        this.below(tokens, k, column);
        return true;
      }
      entry = { column, key: key.key, ...this.value(tokens, key.next, column, column) };
    }
    this.place(entry);
    return true;
  }

  /** A value on the lines below its key or dash (`key:\n  long text`), as writers fold long values. */
  private below(tokens: string[], k: number, column: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.pending === undefined || column <= top.indent) this.refuse(describe(tokens[k]!));
    const { value } = this.value(tokens, k, column, top.indent);
    if (value === undefined || !('set' in value)) this.refuse('a block scalar on the line below its key');
    this.give(top, value.set);
  }

  /** A `-` item: nothing yet, a value, or a mapping whose first key is on this line. */
  private item(tokens: string[], from: number, column: number): Entry {
    let k = from;
    let inner = column + 1;
    if (isSpace(tokens[k])) {
      if (tokens[k]!.includes('\t')) this.refuse('a tab after a dash');
      inner += tokens[k]!.length;
      k += 1;
    }
    if (tokens[k] === '-') this.refuse('a list item that opens another list on its line');
    const key = atEnd(tokens, k) ? null : this.key(tokens, k);
    if (key !== null) {
      return { column, compact: { column: inner, key: key.key, ...this.value(tokens, key.next, inner, inner) } };
    }
    return { column, ...this.value(tokens, k, inner, column) };
  }

  /** A single-line key and its `:`, or null when the tokens at `k` are not one. */
  private key(tokens: string[], k: number): { key: string; next: number } | null {
    const scalar = readScalar(tokens, k);
    if (scalar === null) return null;
    let next = scalar.next;
    if (isSpace(tokens[next])) next += 1;
    if (tokens[next] !== ':') return null;
    if (scalar.source.includes('\n') || scalar.source.length > MAX_KEY) this.refuse('a key over more than one line');
    const key = this.scalarValue(scalar.source, scalar.plain, 0);
    if (typeof key !== 'string') this.refuse('a key that is not a string');
    if (key === '<<' || key === '__proto__') this.refuse(`the key ${key}`);
    return { key, next: next + 1 };
  }

  /**
   * What follows `:` or `- `: nothing (the value is on the lines below), a scalar, a block scalar
   * or `[]`/`{}`. `indent` is where `yaml` measures a block scalar from (the key's column, or the
   * item's after its dash); a continued scalar's lines must be indented past `column`.
   */
  private value(tokens: string[], from: number, indent: number, column: number): Pick<Entry, 'value'> {
    let k = from;
    if (isSpace(tokens[k])) k += 1;
    if (atEnd(tokens, k)) return {};
    const token = tokens[k]!;
    if (token[0] === '|' || token[0] === '>') {
      if (/\d/.test(token) || !atEnd(tokens, k + 1)) this.refuse('a block scalar with an indentation indicator');
      return { value: { block: token, indent } };
    }
    if ((token === '[' || token === '{') && endsEmptyFlow(tokens, k))
      return { value: { set: token === '[' ? [] : {} } };
    const scalar = readScalar(tokens, k);
    if (scalar === null) this.refuse(describe(token));
    if (!atEnd(tokens, scalar.next)) this.refuse(describe(tokens[scalar.next]!));
    return { value: { set: this.scalarValue(scalar.source, scalar.plain, column) } };
  }

  /** A scalar's value: single-line plain and quoted text directly, the rest through `yaml`'s own rules. */
  private scalarValue(source: string, plain: boolean, indent: number): unknown {
    const multiline = source.includes('\n');
    if (multiline && !continuationsIndented(source, indent))
      this.refuse('a value continued on a line indented too little');
    if (plain) {
      if (BAD_PLAIN_START.has(source[0]!)) this.refuse(`a plain value starting with ${source[0]}`);
      return coreScalar(multiline ? this.resolved('scalar', source) : source);
    }
    const quote = source[0];
    const closed = source.length > 1 && source[source.length - 1] === quote;
    if (closed && !multiline && quote === "'") return source.slice(1, -1).replaceAll("''", "'");
    if (closed && !multiline && !source.includes('\\')) return source.slice(1, -1);
    return this.resolved(quote === "'" ? 'single-quoted-scalar' : 'double-quoted-scalar', source);
  }

  private resolved(type: 'scalar' | 'single-quoted-scalar' | 'double-quoted-scalar', source: string): string {
    let wrong = false;
    const r = CST.resolveAsScalar({ type, offset: 0, indent: 0, source, end: [] }, true, () => (wrong = true));
    if (wrong || r === null) this.refuse('a value YAML does not accept');
    return r.value;
  }

  private resolveBlock(body: string): void {
    const { header, indent, assign } = this.block!;
    this.block = null;
    let wrong = false;
    const token = {
      type: 'block-scalar' as const,
      offset: 0,
      indent,
      props: [{ type: 'block-scalar-header' as const, offset: 0, indent, source: header }],
      source: body,
    };
    const r = CST.resolveAsScalar(token, true, () => (wrong = true));
    if (wrong || r === null) this.refuse('a block scalar YAML does not accept');
    assign(r.value);
  }

  /** Puts an entry in the collection its column says it belongs to. */
  private place(entry: Entry): void {
    const kind = entry.key !== undefined ? 'map' : 'seq';
    const top = this.stack[this.stack.length - 1];
    if (top?.pending !== undefined) {
      // Below a key or dash still waiting for its value: a deeper entry, or a dash at a key's own column, is that value.
      const nested =
        entry.column > top.indent || (!Array.isArray(top.node) && entry.column === top.indent && kind === 'seq');
      if (nested) {
        const child = this.open(kind, entry.column, entry.column === top.indent);
        this.give(top, child.node);
        this.add(child, entry);
        return;
      }
      this.settle(top);
    }
    while ((this.stack[this.stack.length - 1]?.indent ?? -1) > entry.column) this.stack.pop();
    let frame = this.stack[this.stack.length - 1];
    if (frame?.indentless && frame.indent === entry.column && kind === 'map') {
      this.stack.pop();
      frame = this.stack[this.stack.length - 1];
    }
    if (frame === undefined && this.root === undefined) frame = this.open(kind, entry.column, false);
    if (frame === undefined || frame.indent !== entry.column || Array.isArray(frame.node) !== (kind === 'seq'))
      this.refuse('a line indented where no mapping or list of the document is');
    this.add(frame, entry);
  }

  private open(kind: 'map' | 'seq', indent: number, indentless: boolean): Frame {
    const frame: Frame = { node: kind === 'map' ? {} : [], indent, indentless };
    this.root ??= frame.node;
    this.stack.push(frame);
    return frame;
  }

  private add(frame: Frame, entry: Entry): void {
    if (entry.compact) {
      const map = this.open('map', entry.compact.column, false);
      (frame.node as unknown[]).push(map.node);
      this.add(map, entry.compact);
      return;
    }
    if (entry.key !== undefined && Object.hasOwn(frame.node, entry.key))
      throw new InputError(`not readable YAML at line ${this.line}: map keys must be unique`);
    const value = entry.value !== undefined && 'set' in entry.value ? entry.value.set : null;
    const at = entry.key ?? (frame.node as unknown[]).push(value) - 1;
    if (entry.key !== undefined) setKey(frame.node, at, value);
    if (entry.value === undefined) frame.pending = entry.key ?? true;
    else if ('block' in entry.value) {
      const node = frame.node;
      this.block = { header: entry.value.block, indent: entry.value.indent, assign: (v) => setKey(node, at, v) };
    }
  }

  /** Gives the value still to come to the frame's pending key or item. */
  private give(frame: Frame, value: unknown): void {
    const at = frame.pending === true ? (frame.node as unknown[]).length - 1 : frame.pending!;
    setKey(frame.node, at, value);
    delete frame.pending;
  }

  /** No value came for the pending key or item: it stays null. */
  private settle(frame: Frame): void {
    delete frame.pending;
  }

  private refuse(what: string): never {
    throw new Unsupported(what, this.line);
  }
}

/** Sets a member as `yaml`'s toJS does: an own property even when the name is inherited (`toString`). */
function setKey(node: Collection, at: string | number, value: unknown): void {
  if (Array.isArray(node) || Object.hasOwn(node, at) || !(at in node))
    (node as Record<string | number, unknown>)[at] = value;
  else Object.defineProperty(node, at, { value, writable: true, enumerable: true, configurable: true });
}

/** A plain or quoted scalar at `k`: its source, and the index after it. */
function readScalar(tokens: string[], k: number): { source: string; plain: boolean; next: number } | null {
  const token = tokens[k];
  if (token === '\u001f' && tokens[k + 1] !== undefined) return { source: tokens[k + 1]!, plain: true, next: k + 2 };
  if (token !== undefined && (token[0] === '"' || token[0] === "'"))
    return { source: token, plain: false, next: k + 1 };
  return null;
}

function isSpace(token: string | undefined): boolean {
  return token !== undefined && (token[0] === ' ' || token[0] === '\t');
}

/** Nothing but a space and a comment left on the line (a comment only after a space, or alone). */
function atEnd(tokens: string[], k: number): boolean {
  let i = k;
  if (isSpace(tokens[i])) i += 1;
  if (tokens[i]?.[0] === '#' && (i === 0 || isSpace(tokens[i - 1]))) i += 1;
  return i >= tokens.length;
}

/** `[` or `{` at `k`, then at most a space, then its closer, then the end of the line. */
function endsEmptyFlow(tokens: string[], k: number): boolean {
  const close = tokens[k] === '[' ? ']' : '}';
  const at = isSpace(tokens[k + 1]) ? k + 2 : k + 1;
  return tokens[at] === close && atEnd(tokens, at + 1);
}

/** Every line after the first of a multi-line scalar is blank or indented past its collection. */
function continuationsIndented(source: string, indent: number): boolean {
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) {
    let spaces = 0;
    while (source[at + 1 + spaces] === ' ') spaces += 1;
    const next = source[at + 1 + spaces];
    const blank = next === undefined || next === '\n' || next === '\r';
    if (!blank && spaces <= indent) return false;
  }
  return true;
}

function describe(token: string): string {
  const what: Record<string, string> = {
    '&': 'a YAML anchor (&name)',
    '*': 'a YAML alias (*name)',
    '!': 'a YAML tag (!tag)',
    '%': 'a YAML directive',
    '?': 'a `?` key',
    '[': 'a flow list ([a, b])',
    '{': 'a flow mapping ({a: b})',
    '-': 'a second document (---) or a misplaced dash',
    '.': 'a document end (...)',
  };
  return what[token[0] ?? ''] ?? 'a line that is not `key: value` or `- item`';
}

function count(text: string, char: string): number {
  let n = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) n += 1;
  return n;
}

// `yaml` reports a plain scalar that starts with one of these as an error.
const BAD_PLAIN_START = new Set(['\t', ',', '%', '|', '>', '@', '`']);

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?\d+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.\d+|\d+(?:\.\d*)?)e[-+]?\d+$/i;
const FLOAT = /^[-+]?(?:\.\d+|\d+\.\d*)$/;

/** A plain scalar's value under YAML 1.2's core schema, tested in `yaml`'s order (yaml/dist/schema/core). */
function coreScalar(text: string): unknown {
  // Most values (names, purls, SPDX ids) start with a letter no core tag but null and bool start with.
  const first = text.charCodeAt(0);
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
  if (letter && !'nNtTfF'.includes(text[0]!)) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_OCT.test(text)) return parseInt(text.substring(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (INT_HEX.test(text)) return parseInt(text.substring(2), 16);
  if (FLOAT_NAN.test(text))
    return text.slice(-3).toLowerCase() === 'nan' ? NaN : text[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return parseFloat(text);
  return text;
}
