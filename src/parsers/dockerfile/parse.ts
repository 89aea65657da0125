/**
 * Dockerfiles: the images of `FROM` lines, plus the `# syntax=` frontend image and the images
 * of `COPY --from=` and `RUN --mount=from=`, which are pulled too. dockerfile-ast does the
 * lexing (continuations, the escape directive, heredocs) of the instructions that can name an
 * image, which instructions.ts finds; variables are expanded here because its getImage() returns
 * the text as written.
 */
import { DockerfileParser } from 'dockerfile-ast';
import type { Dockerfile, Flag, Instruction } from 'dockerfile-ast';
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError, TooComplexError } from '../reference.js';
import { directPlace } from '../direct-place.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';
import { splitInstructions, type Span } from './instructions.js';

/** Real Dockerfiles have fewer than 100 build stages. */
export const MAX_STAGES = 1_000;
/**
 * Text dockerfile-ast is given: the instructions that can name an image (real ones come to a few
 * KB), and heredoc openers. It builds objects per argument, about 1 s per MB.
 */
export const MAX_READ_BYTES = 512 * 1024;
/** No image reference is this long (a repository name is at most 255 characters). */
export const MAX_IMAGE_LENGTH = 4 * 1024;

interface Out {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
}

export function parseDockerfile(text: string): ParseResult {
  // A BOM would otherwise hide a first-line `# syntax=` directive.
  const source = text.replace(/^\uFEFF/, '');
  let d: Dockerfile;
  let lineOf: (instruction: Instruction) => number;
  try {
    ({ d, lineOf } = readDockerfile(source));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`not a readable Dockerfile: ${e instanceof Error ? e.message : String(e)}`);
  }
  return referencesIn(d, lineOf);
}

/**
 * The references of a parsed Dockerfile, each on the line `lineOf` gives its instruction.
 * Exported for the test that holds the reading of the few instructions that matter (readDockerfile)
 * to dockerfile-ast's reading of the whole file.
 */
export function referencesIn(d: Dockerfile, lineOf: (instruction: Instruction) => number): ParseResult {
  const froms = d.getFROMs();
  if (froms.length === 0) throw new InputError('not a Dockerfile: it has no FROM instruction');
  const out: Out = { references: [], unresolved: [] };
  // Only ARGs declared before the first FROM are in scope for FROM lines (Docker's rule).
  const globals = new Map<string, string | null>();
  for (const arg of d.getInitialARGs()) {
    // `ARG A=1 B=2` declares several; getProperty() gives none for that form.
    for (const p of arg.getProperties()) globals.set(p.getName(), p.getValue());
  }

  for (const directive of d.getDirectives()) {
    if (directive.getName().toLowerCase() !== 'syntax') continue;
    const line = directive.getRange().start.line + 1;
    addImage(out, directive.getValue().trim(), `line ${line} (# syntax directive)`, line);
  }

  const stages = new Set<string>();
  for (const from of froms) {
    const line = lineOf(from);
    const location = `line ${line}`;
    const raw = from.getImage();
    if (raw === null || raw.trim() === '') {
      out.unresolved.push({ input: lineText(from), location, reason: 'this FROM names no image.' });
    } else {
      const image = substitute(raw, globals);
      if (typeof image !== 'string') {
        out.unresolved.push({ input: raw, location, reason: image.reason });
      } else if (stages.has(image.toLowerCase())) {
        out.unresolved.push({
          input: raw,
          location,
          reason: `refers to the earlier build stage "${image}", not to an image.`,
        });
      } else if (image.toLowerCase() === 'scratch') {
        out.unresolved.push({ input: raw, location, reason: '"scratch" is the empty image, not a component.' });
      } else {
        addImage(out, image, location, line, raw);
      }
    }
    const stage = from.getBuildStage();
    if (stage) stages.add(stage.toLowerCase());
  }

  // Stage names are known in full only now, and a --from may name any stage of the file.
  for (const instruction of d.getInstructions()) {
    for (const image of extraImages(instruction)) {
      const resolved = substitute(image.value, globals);
      const line = lineOf(instruction);
      const location = `line ${line} (${image.where})`;
      if (typeof resolved !== 'string') out.unresolved.push({ input: image.value, location, reason: resolved.reason });
      // A stage name or a numeric stage index is a file copy between stages, not an image.
      else if (!stages.has(resolved.toLowerCase()) && !/^\d+$/.test(resolved))
        addImage(out, resolved, location, line, image.value);
    }
  }
  return { format: 'dockerfile', references: out.references, unresolved: out.unresolved };
}

/**
 * The instructions that can name an image, alone, parsed by dockerfile-ast: the directives, every
 * FROM, the ARGs before the first, and each COPY or ADD with `--from` and RUN with `--mount` and
 * `from` (with their heredocs, so that what follows them stays an instruction). `lineOf` gives an
 * instruction's line in the whole file.
 */
function readDockerfile(source: string): { d: Dockerfile; lineOf: (instruction: Instruction) => number } {
  const split = splitInstructions(source);
  const kept: Span[] = [];
  const texts: string[] = [split.head];
  let read = split.read + split.head.length;
  let stages = 0;
  for (const span of split.spans) {
    const text = source.slice(span.start, span.argsEnd);
    if (span.keyword === 'FROM') {
      stages += 1;
      if (stages > MAX_STAGES) {
        throw new TooComplexError(
          `it has more than ${MAX_STAGES.toLocaleString('en')} build stages (FROM lines; the one past that is on line ${span.line}). Real Dockerfiles have fewer than 100; Tended reads up to ${MAX_STAGES.toLocaleString('en')}.`,
        );
      }
    } else if (span.keyword === 'ARG') {
      if (stages > 0) continue;
    } else if (span.keyword === 'COPY' || span.keyword === 'ADD') {
      if (!/--from/i.test(text)) continue;
    } else if (span.keyword !== 'RUN' || !/--mount/i.test(text) || !/from/i.test(text)) continue;
    const whole = span.end > span.argsEnd ? source.slice(span.start, span.end) : text;
    read += whole.length;
    if (read > MAX_READ_BYTES) {
      throw new TooComplexError(
        `its FROM, ARG, COPY --from and RUN --mount instructions come to more than ${MAX_READ_BYTES / 1024} KB (past that on line ${span.line}). Real Dockerfiles' come to a few KB; Tended reads up to ${MAX_READ_BYTES / 1024} KB of them.`,
      );
    }
    kept.push(span);
    texts.push(`${whole}\n`);
  }
  const d = DockerfileParser.parse(texts.join(''));
  const instructions = d.getInstructions();
  if (instructions.length !== kept.length) throw new Error('the instructions found and those parsed differ');
  const lines = new Map(instructions.map((instruction, k) => [instruction, kept[k]!.line]));
  return { d, lineOf: (instruction) => lines.get(instruction) ?? instruction.getRange().start.line + 1 };
}

/** The images of `COPY --from=` (and ADD) and `RUN --mount=...,from=...`. */
function extraImages(instruction: Instruction): { value: string; where: string }[] {
  const keyword = instruction.getKeyword().toUpperCase();
  if (keyword !== 'COPY' && keyword !== 'ADD' && keyword !== 'RUN') return [];
  // COPY, ADD and RUN are JSONInstruction subclasses with getFlags(); Instruction's type does not say so.
  const withFlags = instruction as Instruction & { getFlags?: () => Flag[] };
  const flags = typeof withFlags.getFlags === 'function' ? withFlags.getFlags() : [];
  const found: { value: string; where: string }[] = [];
  for (const flag of flags as { getName(): string; getValue(): string | null }[]) {
    const name = flag.getName().toLowerCase();
    const value = flag.getValue();
    if (!value) continue;
    if (name === 'from' && keyword !== 'RUN') found.push({ value, where: `${keyword} --from` });
    if (name === 'mount' && keyword === 'RUN') {
      for (const option of value.split(',')) {
        const [k, v] = option.split('=', 2);
        if (k?.trim().toLowerCase() === 'from' && v) found.push({ value: v.trim(), where: 'RUN --mount from' });
      }
    }
  }
  return found;
}

const NAME_AT = /[A-Z_]\w*/iy;

interface VariableUse {
  start: number;
  end: number;
  name: string;
  colon: boolean;
  op: '-' | '+' | null;
  word: string;
}

/**
 * The variable uses of a FROM line ($V, ${V}, ${V:-word}, ${V+word}…), found in one pass: the
 * next "}" is looked up once and remembered, so a line of many unclosed `${A+` stays linear
 * (a regex with `[^}]*` rescans to the end of the line for every one of them).
 */
function variableUses(raw: string): VariableUse[] {
  const uses: VariableUse[] = [];
  let close = -2; // -2: not looked up yet; -1: no "}" after the last look-up point
  const closeAfter = (from: number): number => {
    if (close === -1 || (close >= from && close !== -2)) return close;
    close = raw.indexOf('}', from);
    return close;
  };
  for (let at = raw.indexOf('$'); at >= 0; at = raw.indexOf('$', at + 1)) {
    const braced = raw[at + 1] === '{';
    NAME_AT.lastIndex = at + (braced ? 2 : 1);
    const name = NAME_AT.exec(raw)?.[0];
    if (name === undefined) continue;
    let next = NAME_AT.lastIndex;
    if (!braced) {
      uses.push({ start: at, end: next, name, colon: false, op: null, word: '' });
      at = next - 1;
      continue;
    }
    if (raw[next] === '}') {
      uses.push({ start: at, end: next + 1, name, colon: false, op: null, word: '' });
      at = next;
      continue;
    }
    const colon = raw[next] === ':';
    if (colon) next += 1;
    const op = raw[next];
    if (op !== '-' && op !== '+') continue;
    const end = closeAfter(next + 1);
    // No "}" left: this ${ is not a variable, but a later plain $NAME still is (the look-up is
    // remembered, so a long run of unclosed ${ stays linear).
    if (end < 0) continue;
    uses.push({ start: at, end: end + 1, name, colon, op, word: raw.slice(next + 1, end) });
    at = end;
  }
  return uses;
}

function substitute(raw: string, globals: Map<string, string | null>): string | { reason: string } {
  const missing: string[] = [];
  const parts: string[] = [];
  let length = 0;
  // Counted as it grows: a long ARG used many times would otherwise be joined past any string V8 can make.
  const push = (part: string) => {
    length += part.length;
    if (length <= MAX_IMAGE_LENGTH) parts.push(part);
  };
  let last = 0;
  for (const use of variableUses(raw)) {
    push(raw.slice(last, use.start));
    last = use.end;
    const v = globals.get(use.name);
    const set = use.colon ? v !== undefined && v !== null && v !== '' : v !== undefined && v !== null;
    if (use.op === '-') push(set ? (v ?? '') : use.word);
    else if (use.op === '+') push(set ? use.word : '');
    else if (v === undefined || v === null) missing.push(use.name);
    else push(v);
  }
  push(raw.slice(last));
  if (missing.length > 0) {
    // Named up to five: a FROM of a hundred thousand unset variables needs no sentence that long.
    const named = missing.slice(0, 5).map((m) => `$${m.slice(0, 40)}`);
    if (missing.length > 5) named.push(`${missing.length - 5} more`);
    return {
      reason: `${missing.length > 1 ? 'the variables' : 'the variable'} ${named.join(', ')} ${missing.length > 1 ? 'have' : 'has'} no value in an ARG before the first FROM, so the image is known only at build time.`,
    };
  }
  if (length > MAX_IMAGE_LENGTH) {
    return {
      reason: `with its variables substituted the image is longer than ${MAX_IMAGE_LENGTH / 1024} KB, and no image reference is that long.`,
    };
  }
  const value = parts.join('');
  // A variable whose default holds another variable is not expanded again by Docker either.
  if (value.includes('$'))
    return { reason: 'the image still holds a variable after substitution, so it is known only at build time.' };
  return value.trim();
}

function addImage(out: Out, image: string, location: string, line: number, input = image): void {
  try {
    out.references.push({ ref: normaliseComponent('docker', image), input, location, line, tree: directPlace() });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    out.unresolved.push({ input, location, reason: `not an image reference: ${e.message}` });
  }
}

function lineText(instruction: Instruction): string {
  return `${instruction.getInstruction()} ${instruction.getArgumentsContent() ?? ''}`.trim();
}
