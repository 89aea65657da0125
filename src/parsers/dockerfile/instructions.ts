/**
 * Where each instruction of a Dockerfile starts and ends, found in one pass without building it.
 * dockerfile-ast builds every instruction, and splits every argument of each RUN, COPY and ADD to
 * look for heredocs: 4 MB of `RUN a` lines took 4 s, one RUN of a million words 1.6 GB, a heredoc
 * of two million lines 5 s. Tended reads a few instructions (FROM, the ARGs before it, the flags of
 * COPY, ADD and RUN), so this pass finds them, and dockerfile-ast reads only them (parse.ts).
 *
 * The loops are dockerfile-ast 0.7.1's own (lib/parser.js: parse, processInstruction,
 * processArguments, processComment, parseHeredoc), so instructions begin and end where it puts
 * them; only an instruction that may open a heredoc (ADD, COPY, RUN or ONBUILD with `<<` in it) is
 * given to dockerfile-ast, alone, for its heredoc names.
 */
import { DockerfileParser } from 'dockerfile-ast';
import type { Instruction } from 'dockerfile-ast';
import { TooComplexError } from '../reference.js';

/** Real Dockerfiles have a few hundred instructions at most. */
export const MAX_INSTRUCTIONS = 10_000;

export interface Span {
  /** As written, upper-cased: `FROM`, `ARG`… (at most 16 characters: no keyword is longer). */
  keyword: string;
  start: number;
  /** Where its arguments end: the line break that ends it, before any heredoc bodies. */
  argsEnd: number;
  /** After its heredoc bodies too. */
  end: number;
  /** 1-based. */
  line: number;
}

export interface Split {
  /** The parser directive lines at the top (`# syntax=…`, `# escape=…`), as written. */
  head: string;
  /** The escape character those directives set: `\` or `` ` ``. */
  escape: string;
  spans: Span[];
  /** Characters given to dockerfile-ast to find heredoc names. */
  read: number;
}

/** Directives are the first lines; this much is more than any real run of them. */
const DIRECTIVES_HEAD = 64 * 1024;

export function splitInstructions(source: string): Split {
  const { head, escape } = directives(source);
  const spans: Span[] = [];
  const lines = new LineCount(source);
  const reader = new Scanner(source, escape);
  for (let i = head.length; i < source.length; i += 1) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (c === '#') {
      i = commentEnd(source, i);
      continue;
    }
    const span = reader.instruction(i);
    span.line = lines.at(i);
    spans.push(span);
    if (spans.length > MAX_INSTRUCTIONS) {
      throw new TooComplexError(
        `it has more than ${MAX_INSTRUCTIONS.toLocaleString('en')} instructions (the one past that is on line ${span.line}). Real Dockerfiles have a few hundred at most; Tended reads up to ${MAX_INSTRUCTIONS.toLocaleString('en')}.`,
      );
    }
    i = span.end;
  }
  return { head, escape, spans, read: reader.read };
}

/** The directive lines, read by dockerfile-ast from the comment lines at the top. */
function directives(source: string): { head: string; escape: string } {
  let end = 0;
  while (end < source.length && end < DIRECTIVES_HEAD) {
    let i = end;
    while (source[i] === ' ' || source[i] === '\t') i += 1;
    if (source[i] !== '#') break;
    end = lineAfter(source, i);
  }
  if (end === 0) return { head: '', escape: '\\' };
  const d = DockerfileParser.parse(source.slice(0, end));
  const count = d.getDirectives().length;
  let head = 0;
  for (let k = 0; k < count; k += 1) head = lineAfter(source, head);
  return { head: source.slice(0, head), escape: d.getEscapeCharacter() };
}

class Scanner {
  read = 0;

  constructor(
    private readonly buffer: string,
    private readonly escapeChar: string,
  ) {}

  /** processInstruction: the keyword, then its arguments, then its heredocs. */
  instruction(start: number): Span {
    const b = this.buffer;
    let keyword = b[start]!;
    let escapedInstruction = false;
    const add = (text: string) => {
      if (keyword.length < 16) keyword += text;
    };
    check: for (let i = start + 1; i < b.length; i += 1) {
      const char = b[i]!;
      if (char === this.escapeChar) {
        escapedInstruction = true;
        const next = b[i + 1];
        if (next === '\r' || next === '\n') i += 1;
        else if (next === ' ' || next === '\t') {
          for (let j = i + 2; j < b.length; j += 1) {
            const c = b[j];
            if (c === ' ' || c === '\t') continue;
            if (c === '\r' || c === '\n') i = j;
            else {
              add(this.escapeChar);
              i = j - 2;
            }
            continue check;
          }
          add(this.escapeChar);
          break check;
        } else {
          add(this.escapeChar);
          escapedInstruction = false;
        }
      } else if (char === ' ' || char === '\t') {
        if (escapedInstruction) {
          for (let j = i + 1; j < b.length; j += 1) {
            const c = b[j];
            if (c === ' ' || c === '\t') continue;
            if (c === '\r' || c === '\n') {
              i = j;
              continue check;
            }
            break;
          }
        }
        const argsEnd = this.argumentsEnd(i);
        const upper = keyword.toUpperCase();
        return { keyword: upper, start, argsEnd, end: this.heredocsEnd(upper, start, argsEnd), line: 0 };
      } else if (char === '\r' || char === '\n') {
        if (escapedInstruction) continue;
        return { keyword: keyword.toUpperCase(), start, argsEnd: i, end: i, line: 0 };
      } else if (char === '#' && escapedInstruction) continue;
      else {
        add(char);
        escapedInstruction = false;
      }
    }
    return { keyword: keyword.toUpperCase(), start, argsEnd: b.length, end: b.length, line: 0 };
  }

  /** processArguments: the line break that ends the instruction, past escaped ones and the comment lines between them. */
  private argumentsEnd(offset: number): number {
    const b = this.buffer;
    let escaped = false;
    check: for (let i = offset + 1; i < b.length; i += 1) {
      const char = b[i]!;
      if (char === '\r' || char === '\n') {
        if (!escaped) return i;
      } else if (char === this.escapeChar) {
        const next = b[i + 1];
        if (next === '\n' || next === '\r') {
          escaped = true;
          i += 1;
        } else if (next === ' ' || next === '\t') {
          for (let j = i + 2; j < b.length; j += 1) {
            const c = b[j];
            if (c === ' ' || c === '\t') continue;
            if (c === '\r' || c === '\n') escaped = true;
            i = j;
            continue check;
          }
          return b.length;
        }
      } else if (char === '#') {
        if (escaped) i = commentEnd(b, i);
      } else if (char !== ' ' && char !== '\t') escaped = false;
    }
    return b.length;
  }

  /** processHeredocs: past the bodies of the heredocs an ADD, COPY or RUN (maybe after ONBUILD) opens. */
  private heredocsEnd(keyword: string, start: number, argsEnd: number): number {
    if (keyword !== 'ADD' && keyword !== 'COPY' && keyword !== 'RUN' && keyword !== 'ONBUILD') return argsEnd;
    const text = this.buffer.slice(start, argsEnd);
    if (!text.includes('<<')) return argsEnd;
    this.read += text.length;
    const prefix = this.escapeChar === '\\' ? '' : `# escape=${this.escapeChar}\n`;
    let instruction: Instruction | null = DockerfileParser.parse(prefix + text).getInstructions()[0] ?? null;
    if (instruction?.getKeyword() === 'ONBUILD') instruction = (instruction as Onbuild).getTriggerInstruction();
    const which = instruction?.getKeyword();
    if (instruction === null || (which !== 'ADD' && which !== 'COPY' && which !== 'RUN')) return argsEnd;
    const names: string[] = [];
    let tabbed = false;
    for (const arg of instruction.getArguments()) {
      const value = arg.getValue();
      if (!value.startsWith('<<') || value.length <= 2) continue;
      if (value.startsWith('<<-')) tabbed = true;
      const name = heredocName(value);
      if (name !== null) names.push(name);
    }
    let end = argsEnd;
    for (const name of names) end = this.heredocEnd(name, end, tabbed);
    return end;
  }

  /** parseHeredoc: the line break after the line that is the heredoc's name alone. */
  private heredocEnd(name: string, offset: number, tabbed: boolean): number {
    const b = this.buffer;
    let startWord = -1;
    let lineStart = true;
    for (let i = offset; i < b.length; i += 1) {
      const c = b[i];
      if (c === ' ') lineStart = false;
      else if (c === '\t') {
        if (!tabbed) lineStart = false;
      } else if (c === '\r' || c === '\n') {
        if (startWord !== -1 && i - startWord === name.length && b.startsWith(name, startWord)) return i;
        startWord = -1;
        lineStart = true;
      } else if (lineStart) {
        startWord = i;
        lineStart = false;
      }
    }
    return b.length;
  }
}

interface Onbuild extends Instruction {
  getTriggerInstruction(): Instruction | null;
}

/** Util.parseHeredocName: `<<EOF`, `<<-EOF`, `<<"EOF"`, `<<'EOF'`. */
function heredocName(arg: string): string | null {
  let value = arg.substring(2);
  if (value.startsWith('-')) value = value.substring(1);
  for (const quote of ['"', "'"]) {
    if (value.startsWith(quote)) {
      if (!value.endsWith(quote)) return null;
      value = value.substring(1, value.length - 1);
    }
  }
  return value.startsWith('<') ? null : value;
}

/** processComment: the line break (or the end) after a comment. */
function commentEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) if (text[i] === '\r' || text[i] === '\n') return i;
  return text.length;
}

/** The index after the line break that ends the line at `at` (`\r\n`, `\n` or `\r`, as dockerfile-ast counts lines). */
function lineAfter(text: string, at: number): number {
  const end = commentEnd(text, at - 1);
  if (end >= text.length) return text.length;
  return text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
}

/** 1-based line numbers of increasing offsets, counted once over the text. */
class LineCount {
  private offset = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  at(offset: number): number {
    for (; this.offset < offset; this.offset += 1) {
      const c = this.text[this.offset];
      if (c === '\n' || (c === '\r' && this.text[this.offset + 1] !== '\n')) this.line += 1;
    }
    return this.line;
  }
}
