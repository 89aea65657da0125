/**
 * The run of `tended check FILE|DIR` that needs no store: its options checked, the file read and
 * parsed (or the directory walked, check-dir.ts), the answer asked of `answerFrom` (the service at
 * --url, or the local record that check.ts opens), the report written and the gate applied. Its
 * own file, free of storage and native modules, so the GitHub Action's bundle (action/main.ts)
 * runs exactly this and nothing of SQLite or PostgreSQL comes with it.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { ValidationError } from '../domain/errors.js';
import type { CheckAnswer } from '../operations/check-components.js';
import {
  enrichedSbom,
  isSbomFormat,
  writableSbom,
  type FormatWords,
  type WritableSbom,
} from '../operations/sbom-enrichment.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { runDirectoryCheck } from './check-dir.js';
import { isSbom, parseCheckedFile, readCheckedFile } from './check-file.js';
import { checkOptions, failingOf, plural, type CheckOptions, type Gate } from './check-options.js';
import { referenceLines, report } from './check-report.js';
import { EXIT } from './exit-codes.js';
import { InputFileError } from './input-file.js';
import { findPolicy, PolicyError } from './policy-file.js';
import { judge, withPolicy } from './policy.js';
import { remoteCheck } from './remote-check.js';
import { ServiceError } from './service-fetch.js';
import type { CheckOutcome, LocalAnswer, Streams } from './check-outcome.js';

export type { CheckOptions } from './check-options.js';

export async function runCheck(
  streams: Streams,
  file: string,
  opts: CheckOptions,
  local: LocalAnswer | null,
): Promise<CheckOutcome> {
  const usage = (message: string): CheckOutcome => {
    streams.stderr.write(`tended: ${message}\n`);
    return { exit: EXIT.usage, problem: message };
  };
  const asOf = opts['as-of'];
  const flags = checkOptions(opts, local !== null);
  if (typeof flags === 'string') return usage(flags);
  // A policy that cannot be read is a usage error before anything is asked: never a gate run without it.
  let gate: Gate;
  try {
    gate = withPolicy(flags, opts, findPolicy(opts.policy, file, isDirectory(file)));
  } catch (error) {
    if (error instanceof PolicyError || error instanceof InputFileError) return usage(error.message);
    throw error;
  }
  const sbomFormat = opts.format !== undefined && isSbomFormat(opts.format) ? opts.format : undefined;
  if (isDirectory(file)) {
    // stdout holds one document; a directory's SBOMs would be several run together.
    if (sbomFormat !== undefined)
      return usage(
        `--format ${sbomFormat} writes one SBOM back to stdout, so it checks one file, and ${file} is a directory: name the SBOM inside it (tended check ${file}/bom.json --format ${sbomFormat}), or use --format table, json, sarif or markdown for the whole directory`,
      );
    return runDirectoryCheck(streams, file, opts, gate, local);
  }
  let answer: CheckAnswer;
  let parsed: ParseResult;
  let writable: WritableSbom | undefined;
  try {
    const read = parseCheckedFile(readCheckedFile(file), file, basename(file));
    parsed = read.parsed;
    // Refused before anything is asked: a manifest, or an SBOM of the other format, is not written back.
    writable = sbomFormat === undefined ? undefined : writableSbom(read.text, parsed, sbomFormat, CLI_WORDS);
    answer = opts.url
      ? await remoteCheck(opts.url, read.text, basename(file), isSbom(parsed), asOf, opts.queue === true)
      : (await local!([parsed], asOf, opts.observe === true))[0]!;
  } catch (error) {
    if (error instanceof InputFileError) return usage(error.message);
    if (error instanceof InputError || error instanceof ValidationError) return usage(`${file}: ${error.message}`);
    if (error instanceof ServiceError) {
      streams.stderr.write(`tended: ${error.message}\n`);
      return { exit: error.exit, problem: error.message };
    }
    throw error;
  }
  const lines = referenceLines(parsed);
  // Judged before the report is written: an excepted result says so in every format.
  const judged = judge(
    failingOf(answer.results, gate).map((result) => ({ result })),
    answer.results,
    gate,
    answer.as_of,
  );
  // The SBOM is enriched here from the answer's results, the service's as well (the same function
  // its ?format= uses): one request gives both the SBOM and the gate, which cannot then disagree.
  streams.stdout.write(
    writable === undefined ? report(answer, opts.format, file, lines) : enrichedSbom(writable, answer.results),
  );
  const omitted = answer.results_omitted ?? 0;
  if (writable !== undefined && omitted > 0)
    streams.stderr.write(
      `tended: the service left ${plural(omitted, 'result', 'results')} out of its answer (its size limit), so those components of ${file} are written back without Tended's properties\n`,
    );
  // A file read by its name as a format it is not (prose in a .txt read as requirements) passes
  // any gate with nothing checked: say so where a CI log shows it.
  if (answer.results_count === 0 && answer.unresolved_count > 0)
    streams.stderr.write(
      `tended: none of the ${plural(answer.unresolved_count, 'entry', 'entries')} of ${file}, read as ${answer.format}, names a component Tended reads: nothing was checked. Is it the file you meant?\n`,
    );
  // An empty requirements.txt (or one of comments only) is a project with no dependencies, so the
  // gate passes (exit 0); but a header row alone must not read as "all clear" for a file mistyped.
  else if (answer.results_count === 0)
    streams.stderr.write(
      `tended: ${file}, read as ${answer.format}, names no components (it is empty, or holds only comments or blank lines): nothing was checked; exit 0, as nothing fails. Is it the file you meant?\n`,
    );
  for (const line of judged.lines) streams.stderr.write(`tended: ${line}\n`);
  const failing = judged.failing.map((f) => f.result);
  if (judged.gate === undefined) return { exit: EXIT.ok, answer, lines, failing };
  return { exit: EXIT.failed, answer, lines, failing, gate: judged.gate };
}

const CLI_WORDS: FormatWords = {
  option: (format) => `--format ${format}`,
  plain: 'use --format table, json, sarif or markdown for the report',
  sent: 'file',
};

/** A directory is walked (check-dir.ts); anything else, a missing path included, is read as a file and says why it cannot be. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
