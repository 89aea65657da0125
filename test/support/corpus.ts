import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../src/parsers/reference.js';

/** The parsing corpus (copied from shared/corpus) and its MANIFEST.tsv, for the parser tests. */
export const CORPUS = fileURLToPath(new URL('../corpus/', import.meta.url));

// A missing corpus must fail the run, not pass it with zero cases.
if (!existsSync(join(CORPUS, 'MANIFEST.tsv'))) throw new Error(`parsing corpus not found at ${CORPUS}`);

const rows = readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim() !== '')
  .map((l) => l.split('\t'))
  .map((c) => ({ file: c[0] ?? '', expected: Number(c[6]), note: c[7] ?? '' }));

/** expected_components by corpus file (`dockerfile/grafana.Dockerfile` → 3). */
export const expected = new Map(rows.map((r) => [r.file, r.expected] as const));

/** The MANIFEST.tsv rows of one folder, with their counting notes. */
export function corpusRows(folder: string): { file: string; expected: number; note: string }[] {
  return rows.filter((r) => r.file.startsWith(`${folder}/`));
}

/** The corpus files present in one folder, as `folder/name`. */
export function corpusFiles(folder: string): string[] {
  return readdirSync(join(CORPUS, folder)).map((f) => `${folder}/${f}`);
}

/** Runs f; any error but an InputError (the parsers' only refusal) fails the test. */
export function throwsOnlyInputError(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
  }
}
