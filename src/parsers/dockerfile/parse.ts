/**
 * Dockerfiles: the images of `FROM` lines, plus the `# syntax=` frontend image and the images
 * of `COPY --from=` and `RUN --mount=from=`, which are pulled too. dockerfile-ast does the
 * lexing (continuations, the escape directive, heredocs); variables are expanded here because
 * its getImage() returns the text as written.
 */
import { DockerfileParser } from 'dockerfile-ast';
import type { Dockerfile, Instruction } from 'dockerfile-ast';
import { normaliseComponent } from '../../domain/component.js';
import { ValidationError } from '../../domain/errors.js';
import { InputError } from '../reference.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../reference.js';

// $V, ${V}, ${V:-default}, ${V-default}, ${V:+alt}, ${V+alt}: the forms a FROM line may use.
const VARIABLE = /\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-+])([^}]*))?\})/g;

interface Out {
  references: ComponentReference[];
  unresolved: UnresolvedEntry[];
}

export function parseDockerfile(text: string): ParseResult {
  // A BOM would otherwise hide a first-line `# syntax=` directive.
  const source = text.replace(/^\uFEFF/, '');
  let d: Dockerfile;
  try {
    d = DockerfileParser.parse(source);
  } catch (e) {
    throw new InputError(`not a readable Dockerfile: ${e instanceof Error ? e.message : String(e)}`);
  }
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
    addImage(out, directive.getValue().trim(), `line ${line} (# syntax directive)`);
  }

  const stages: string[] = [];
  for (const from of froms) {
    const location = `line ${from.getRange().start.line + 1}`;
    const raw = from.getImage();
    if (raw === null || raw.trim() === '') {
      out.unresolved.push({ input: lineText(from), location, reason: 'this FROM names no image.' });
    } else {
      const image = substitute(raw, globals);
      if (typeof image !== 'string') {
        out.unresolved.push({ input: raw, location, reason: image.reason });
      } else if (stages.includes(image.toLowerCase())) {
        out.unresolved.push({
          input: raw,
          location,
          reason: `refers to the earlier build stage "${image}", not to an image.`,
        });
      } else if (image.toLowerCase() === 'scratch') {
        out.unresolved.push({ input: raw, location, reason: '"scratch" is the empty image, not a component.' });
      } else {
        addImage(out, image, location, raw);
      }
    }
    const stage = from.getBuildStage();
    if (stage) stages.push(stage.toLowerCase());
  }

  // Stage names are known in full only now, and a --from may name any stage of the file.
  for (const instruction of d.getInstructions()) {
    for (const image of extraImages(instruction)) {
      const resolved = substitute(image.value, globals);
      const location = `line ${instruction.getRange().start.line + 1} (${image.where})`;
      if (typeof resolved !== 'string') out.unresolved.push({ input: image.value, location, reason: resolved.reason });
      // A stage name or a numeric stage index is a file copy between stages, not an image.
      else if (!stages.includes(resolved.toLowerCase()) && !/^\d+$/.test(resolved))
        addImage(out, resolved, location, image.value);
    }
  }
  return { format: 'dockerfile', references: out.references, unresolved: out.unresolved };
}

/** The images of `COPY --from=` (and ADD) and `RUN --mount=...,from=...`. */
function extraImages(instruction: Instruction): { value: string; where: string }[] {
  const keyword = instruction.getKeyword().toUpperCase();
  if (keyword !== 'COPY' && keyword !== 'ADD' && keyword !== 'RUN') return [];
  const flags = 'getFlags' in instruction && typeof instruction.getFlags === 'function' ? instruction.getFlags() : [];
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

function substitute(raw: string, globals: Map<string, string | null>): string | { reason: string } {
  const missing: string[] = [];
  const value = raw.replace(
    VARIABLE,
    (
      _m,
      plain: string | undefined,
      braced: string | undefined,
      colon: string,
      op: string | undefined,
      word: string | undefined,
    ) => {
      const name = plain ?? braced ?? '';
      const v = globals.get(name);
      const set = colon === ':' ? v !== undefined && v !== null && v !== '' : v !== undefined && v !== null;
      if (op === '-') return set ? (v ?? '') : (word ?? '');
      if (op === '+') return set ? (word ?? '') : '';
      if (v === undefined || v === null) {
        missing.push(name);
        return '';
      }
      return v;
    },
  );
  if (missing.length > 0) {
    return {
      reason: `${missing.length > 1 ? 'the variables' : 'the variable'} ${missing.map((m) => `$${m}`).join(', ')} ${missing.length > 1 ? 'have' : 'has'} no value in an ARG before the first FROM, so the image is known only at build time.`,
    };
  }
  // A variable whose default holds another variable is not expanded again by Docker either.
  if (value.includes('$'))
    return { reason: 'the image still holds a variable after substitution, so it is known only at build time.' };
  return value.trim();
}

function addImage(out: Out, image: string, location: string, input = image): void {
  try {
    out.references.push({ ref: normaliseComponent('docker', image), input, location });
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    out.unresolved.push({ input, location, reason: `not an image reference: ${e.message}` });
  }
}

function lineText(instruction: Instruction): string {
  return `${instruction.getInstruction()} ${instruction.getArgumentsContent() ?? ''}`.trim();
}
