/**
 * `tended check DIR`: every manifest, lockfile and SBOM a directory holds (check-walk.ts), a
 * manifest and its lockfile answered once (manifest-lockfile.ts), in one report grouped by file.
 * A file that cannot be read or parsed is reported for that file and the others still run; the
 * exit code is the worst of them (3 over 2 over 1 over 0, exit-codes.ts).
 */
import { basename, dirname, posix } from 'node:path';
import { ValidationError } from '../domain/errors.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { isSbom, parseCheckedFile, readCheckedFile } from './check-file.js';
import { failingOf, plural, type CheckOptions, type Gate } from './check-options.js';
import { referenceLines, table } from './check-report.js';
import type { CheckOutcome, FileOutcome, LocalAnswer, Streams } from './check-outcome.js';
import { walkDirectory, type FoundFile } from './check-walk.js';
import { EXIT } from './exit-codes.js';
import { InputFileError } from './input-file.js';
import { manifestLines, markDirectInAnswer, mergeManifestLockfile, pairsIn } from './manifest-lockfile.js';
import { judge } from './policy.js';
import { remoteCheck } from './remote-check.js';
import { cell, reviewComment } from './review-comment.js';
import { sarifLog } from '../operations/sarif-report.js';
import { ServiceError } from './service-fetch.js';

/** What one request to the manifest and SBOM routes may carry (src/api/body.ts SUBMISSION_LIMIT_BYTES). */
export const SERVICE_BODY_BYTES = 4 * 1024 * 1024;

/** One thing to answer: a file, or a lockfile with the manifest beside it. */
interface Unit {
  file: FoundFile;
  manifest?: FoundFile;
}

/** A unit read: what is sent or answered, and where its lines are. */
interface ReadUnit {
  outcome: FileOutcome;
  text: string;
  /** What is answered locally: the lockfile's tree merged with the manifest's direct dependencies. */
  parsed: ParseResult;
  /** The manifest's parse, to mark the service's answer to the lockfile alone. */
  manifest?: ParseResult;
}

/** The walk's files as units: each manifest that has its lockfile beside it goes with it. */
function unitsOf(files: FoundFile[]): Unit[] {
  const byDir = new Map<string, FoundFile[]>();
  for (const f of files) {
    const dir = dirname(f.relative);
    byDir.set(dir, [...(byDir.get(dir) ?? []), f]);
  }
  const units: Unit[] = [];
  for (const inDir of byDir.values()) {
    const byName = new Map(inDir.map((f) => [basename(f.relative), f]));
    const pairs = pairsIn([...byName.keys()]);
    const lockfiles = new Set(pairs.values());
    for (const [name, f] of byName) {
      if (lockfiles.has(name)) continue;
      const lockfile = pairs.get(name);
      units.push(lockfile ? { file: byName.get(lockfile)!, manifest: f } : { file: f });
    }
  }
  return units.sort((a, b) => (a.file.relative < b.file.relative ? -1 : 1));
}

/** Why a file has no answer, as one sentence, or null when the error is not the file's. */
function fileProblem(error: unknown, path: string): string | null {
  if (error instanceof InputFileError) return error.message;
  if (error instanceof InputError || error instanceof ValidationError) return `${path}: ${error.message}`;
  return null;
}

function parse(f: FoundFile): { text: string; parsed: ParseResult } | { error: string } {
  try {
    return parseCheckedFile(readCheckedFile(f.path), f.relative, basename(f.path));
  } catch (error) {
    const problem = fileProblem(error, f.relative);
    if (problem === null) throw error;
    return { error: problem };
  }
}

/** Reads and parses each unit; a manifest or lockfile that fails is reported alone and its partner still answers. */
function readUnits(units: Unit[]): { read: ReadUnit[]; failed: FileOutcome[] } {
  const read: ReadUnit[] = [];
  const failed: FileOutcome[] = [];
  for (const unit of units) {
    const file = parse(unit.file);
    const manifest = unit.manifest ? parse(unit.manifest) : null;
    if ('error' in file) failed.push({ file: unit.file.relative, error: file.error });
    if (manifest && 'error' in manifest) failed.push({ file: unit.manifest!.relative, error: manifest.error });
    const lines = (p: ParseResult) => referenceLines(p);
    if ('error' in file) {
      if (manifest && !('error' in manifest))
        read.push({ outcome: { file: unit.manifest!.relative, lines: lines(manifest.parsed) }, ...manifest });
      continue;
    }
    if (!manifest || 'error' in manifest) {
      read.push({ outcome: { file: unit.file.relative, lines: lines(file.parsed) }, ...file });
      continue;
    }
    const name = unit.manifest!.relative;
    const own = lines(file.parsed);
    const linesIn = new Map<string, string>();
    for (const [key, at] of manifestLines(manifest.parsed)) {
      own.set(key, at);
      linesIn.set(key, name);
    }
    read.push({
      outcome: { file: unit.file.relative, manifest: name, lines: own, linesIn },
      text: file.text,
      parsed: mergeManifestLockfile(manifest.parsed, file.parsed, basename(name)),
      manifest: manifest.parsed,
    });
  }
  return { read, failed };
}

export async function runDirectoryCheck(
  streams: Streams,
  dir: string,
  opts: CheckOptions,
  gate: Gate,
  local: LocalAnswer | null,
): Promise<CheckOutcome> {
  const started = performance.now();
  const walk = walkDirectory(dir);
  for (const sentence of walk.passedOver) streams.stderr.write(`tended: ${dir}: ${sentence}\n`);
  if (walk.files.length === 0) {
    const problem = `found no manifest, lockfile or SBOM to check in ${dir} (the walk's rules: docs/cli.md "Checking a directory"); name a file to read it whatever its name`;
    streams.stderr.write(`tended: ${problem}\n`);
    return { exit: EXIT.usage, problem, files: [] };
  }
  const { read, failed } = readUnits(unitsOf(walk.files));
  let exit: number = failed.length > 0 ? EXIT.usage : EXIT.ok;
  const asOf = opts['as-of'];
  if (!opts.url) {
    const answers =
      read.length > 0
        ? await local!(
            read.map((u) => u.parsed),
            asOf,
            opts.observe === true,
          )
        : [];
    read.forEach((u, i) => (u.outcome.answer = answers[i]));
  } else {
    let unavailable: string | null = null;
    for (const u of read) {
      if (unavailable !== null) {
        u.outcome.error = `not sent: ${unavailable}`;
        continue;
      }
      const sbom = isSbom(u.parsed);
      const bytes = Buffer.byteLength(
        sbom ? u.text : JSON.stringify({ filename: basename(u.outcome.file), content: u.text }),
      );
      if (bytes > SERVICE_BODY_BYTES) {
        u.outcome.error = `${u.outcome.file} is larger than one request to the service may be (${SERVICE_BODY_BYTES / 1024 / 1024} MB); it is checked locally, without --url`;
        exit = Math.max(exit, EXIT.usage);
        continue;
      }
      try {
        const answer = await remoteCheck(opts.url, u.text, basename(u.outcome.file), sbom, asOf, opts.queue === true);
        u.outcome.answer = u.manifest ? markDirectInAnswer(answer, u.manifest) : answer;
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        u.outcome.error = error.message;
        exit = Math.max(exit, error.exit);
        // A service that does not answer will not answer the next file either: say so once, send no more.
        if (error.exit === EXIT.unavailable) unavailable = `the service did not answer ${u.outcome.file}`;
      }
    }
  }
  const files = [...read.map((u) => u.outcome), ...failed].sort((a, b) => (a.file < b.file ? -1 : 1));
  for (const f of files) {
    if (f.answer) {
      f.format = f.answer.format;
      f.failing = failingOf(f.answer.results, gate);
    } else streams.stderr.write(`tended: ${f.error}\n`);
  }
  const answered = files.filter((f) => f.answer);
  const components = answered.reduce((n, f) => n + f.answer!.results.length, 0);
  // One policy over every file: judged before the report is written, so excepted results say so in it.
  const judged = judge(
    answered.flatMap((f) => f.failing!.map((result) => ({ result, file: f.file }))),
    answered.flatMap((f) => f.answer!.results),
    gate,
    answered[0]?.answer!.as_of ?? '',
  );
  const stillFailing = new Set(judged.failing.map((f) => f.result));
  for (const f of answered) f.failing = f.failing!.filter((r) => stillFailing.has(r));
  streams.stdout.write(directoryReport(dir, files, opts.format));
  for (const line of judged.lines) streams.stderr.write(`tended: ${line}\n`);
  const sentence = judged.gate;
  if (sentence !== undefined) exit = Math.max(exit, EXIT.failed);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  streams.stderr.write(
    `checked ${plural(answered.length, 'file', 'files')}, ${plural(components, 'component', 'components')} in ${seconds} s` +
      `${files.length > answered.length ? `; ${plural(files.length - answered.length, 'file', 'files')} not checked` : ''}\n`,
  );
  return { exit, files, ...(sentence !== undefined ? { gate: sentence } : {}) };
}

/** The report of every file, grouped by file, in the format --format names. */
export function directoryReport(dir: string, files: FileOutcome[], format: string | undefined): string {
  const answered = files.filter((f) => f.answer);
  if (format === 'json')
    return `${JSON.stringify(
      {
        directory: dir,
        files_count: files.length,
        results_count: answered.reduce((n, f) => n + f.answer!.results_count, 0),
        files: files.map((f) =>
          f.answer
            ? { file: f.file, ...(f.manifest ? { manifest: f.manifest } : {}), format: f.format, answer: f.answer }
            : { file: f.file, error: f.error },
        ),
      },
      null,
      2,
    )}\n`;
  if (format === 'sarif')
    return `${JSON.stringify(
      sarifLog(
        answered.map((f) => ({ answer: f.answer!, file: f.file, lines: f.lines ?? new Map(), linesIn: f.linesIn })),
        {
          directory: dir,
          as_of: answered[0]?.answer!.as_of,
          files: files.map((f) => (f.answer ? { file: f.file, format: f.format } : { file: f.file, error: f.error })),
          results_count: answered.reduce((n, f) => n + f.answer!.results_count, 0),
          note: answered[0]?.answer!.note,
          license: answered[0]?.answer!.license,
        },
      ),
      null,
      2,
    )}\n`;
  const out: string[] = [];
  if (format === 'markdown') {
    out.push(`## Tended check of \`${cell(dir).replaceAll('`', "'")}\`: ${plural(files.length, 'file', 'files')}`, '');
    for (const f of files) {
      out.push(`### ${cell(titleOf(f))}`, '');
      out.push(
        f.answer
          ? reviewComment(f.answer, f.file, f.lines ?? new Map<string, number[]>(), f.linesIn)
          : `Not checked: ${cell(f.error ?? '')}\n`,
      );
    }
    return out.join('\n');
  }
  for (const f of files) out.push(`== ${titleOf(f)}`, f.answer ? table(f.answer) : `not checked: ${f.error}\n`);
  return out.join('\n');
}

/** `app/package-lock.json (with app/package.json)`. */
function titleOf(f: FileOutcome): string {
  return f.manifest ? `${f.file} (with ${posix.basename(f.manifest)})` : f.file;
}
