/**
 * What the TOML lockfiles (Cargo.lock, poetry.lock, uv.lock) share: reading the document with a
 * bound on nesting first, and the line of each `[[package]]` header, which smol-toml does not keep.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { checkTomlDepth } from './cargo-toml/toml-depth.js';
import { InputError } from './reference.js';

export type Table = Record<string, unknown>;

export function table(v: unknown): Table | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Table) : null;
}

export function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The document, or an InputError saying where the TOML is wrong; a TooComplexError past MAX_TOML_DEPTH. */
export function readTomlLockfile(source: string, what: string): Table {
  const body = source.replace(/^\uFEFF/, '');
  // Before smol-toml: a dotted key thousands deep builds a table that deep (see toml-depth.ts).
  checkTomlDepth(body, what);
  try {
    return parseToml(body);
  } catch (e) {
    const where = e instanceof TomlError ? ` on line ${e.line}` : '';
    throw new InputError(
      `Expected a ${what}, but it is not valid TOML${where}: ${e instanceof Error ? e.message.split('\n')[0]!.slice(0, 120) : 'unreadable'}`,
    );
  }
}

/** The `[[package]]` entries of a lockfile, or an InputError when there is no such array. */
export function packagesOf(doc: Table, what: string): unknown[] {
  const packages = doc['package'];
  if (packages === undefined) return [];
  if (!Array.isArray(packages))
    throw new InputError(`Expected a ${what}, but its "package" is not an array of [[package]] tables.`);
  return packages;
}

/**
 * The 1-based line of each `[[package]]` header, in order: one pass, no regular expression. The
 * i-th header is the i-th entry of `package` unless the array was written another way (inline);
 * callers use these only when the counts agree, so a line is never wrong, only sometimes unknown.
 */
export function packageHeaderLines(source: string): number[] {
  const lines: number[] = [];
  let line = 1;
  for (let start = 0; start <= source.length; line += 1) {
    let end = source.indexOf('\n', start);
    if (end === -1) end = source.length;
    let i = start;
    while (i < end && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9)) i += 1;
    if (source.startsWith('[[package]]', i)) lines.push(line);
    start = end + 1;
  }
  return lines;
}

/** A format version as a refusal quotes it: short, and never an object's "[object Object]". */
export function shownVersion(v: unknown): string {
  if (v === undefined) return '(missing)';
  return typeof v === 'number' || typeof v === 'string' ? String(v).slice(0, 20) : `of type ${typeof v}`;
}
