/**
 * What `tended check` reads before it asks anything: the file (with the reason it cannot be read)
 * and its format (with what the CLI reads, in the CLI's terms: it has no `"filename"` field and no
 * `?format=`, the file's own name says which manifest it is).
 */
import { ValidationError } from '../domain/errors.js';
import { formatOfFilename, parseManifest, parseSbom } from '../operations/parse-submission.js';
import { decodeText } from '../parsers/decode-text.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { InputFileError, readInputFile } from './input-file.js';

/** The bytes of the file to check, or why there are none to read. */
export function readCheckedFile(file: string): Buffer {
  return readInputFile(file, 'name the manifest or SBOM inside it (package.json, requirements.txt, bom.json…)');
}

const READS =
  'check reads a manifest (a GitHub Actions workflow, a Dockerfile, package.json, requirements.txt, go.mod, pom.xml, composer.json, a NuGet project file, Cargo.toml, a Gemfile, or a lockfile: Cargo.lock, Gemfile.lock, poetry.lock, uv.lock, Pipfile.lock) or an SBOM (CycloneDX 1.2–1.7 JSON or XML; SPDX 2.2/2.3 JSON, YAML or tag-value; SPDX 3.0 JSON-LD). It knows a manifest by its usual file name, else any of them by its content';

/** The references of a local file: a manifest when its name says so; otherwise an SBOM if it reads as one, else a manifest by content. */
export function parseCheckedFile(bytes: Buffer, file: string, filename: string): { text: string; parsed: ParseResult } {
  const text = decodeText(bytes);
  if (formatOfFilename(filename) !== null && !/sbom|\.spdx|\.cdx|bom\.(?:json|xml)$/i.test(filename))
    return { text, parsed: parseManifest(text, { filename }, { lines: true }) };
  const byName = formatOfFilename(filename) !== null;
  try {
    return { text, parsed: parseSbom(text, '') };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
  }
  try {
    return { text, parsed: parseManifest(text, { filename }, { lines: true }) };
  } catch (error) {
    // A parse error is the format's own sentence only when the name claimed that format: a
    // README.md that happens to hold a line like `on:` is not a broken workflow.
    const parseError = error instanceof InputError || error instanceof ValidationError;
    if (!parseError || (byName && !isFormatRefusal(error))) throw error;
    throw unrecognised(file, bytes, text);
  }
}

function isFormatRefusal(error: unknown): boolean {
  return error instanceof ValidationError && error.issues.some((i) => i.type === 'value_error.format');
}

function unrecognised(file: string, bytes: Buffer, text: string): InputFileError {
  return new InputFileError(
    `${file}: Tended could not tell what kind of file this is: ${whatItIs(bytes, text)}. ${READS}.`,
  );
}

/** What an unrecognised file looks like, so the person sees why it was not taken for a manifest. */
function whatItIs(bytes: Buffer, text: string): string {
  if (bytes.length === 0 || text.trim() === '') return 'it is empty';
  // NUL bytes, or undecodable sequences: no text format Tended reads has them.
  if (bytes.includes(0) || text.includes('\uFFFD')) return 'it is not text (binary data)';
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)
      return 'it is an empty JSON object ({}), with no dependencies, components or packages';
    return 'it is JSON, but neither a package.json, a composer.json nor an SBOM';
  } catch {
    return 'it is text in the shape of none of them';
  }
}

/** An SBOM goes to the service's SBOM route, a manifest or lockfile to its manifest route. */
export function isSbom(parsed: ParseResult): boolean {
  return parsed.format === 'cyclonedx' || parsed.format === 'spdx';
}
