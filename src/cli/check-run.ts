/**
 * The run of `tended check FILE` that needs no store: its options checked, the file read and
 * parsed, the answer asked of `answerFrom` (the service at --url, or the local record that
 * check.ts opens), the report written and the gate applied. Its own file, free of storage and
 * native modules, so the GitHub Action's bundle (action/main.ts) runs exactly this and nothing of
 * SQLite or PostgreSQL comes with it.
 */
import { basename } from 'node:path';
import { utcDateOf } from '../domain/calendar.js';
import { ValidationError } from '../domain/errors.js';
import { isState, stateInWords, STATES, type State } from '../domain/state.js';
import type { CheckAnswer, ComponentCheck } from '../operations/check-components.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { parseCheckedFile, readCheckedFile } from './check-file.js';
import { dateProblem } from './date-option.js';
import { EXIT } from './exit-codes.js';
import { InputFileError } from './input-file.js';
import { remoteCheck } from './remote-check.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from './sarif-report.js';
import { ServiceError } from './service-fetch.js';

/** The failing components the gate's sentence names; the report on stdout has them all. */
export const NAMED_IN_GATE = 10;

/** The states that fail a CI gate by default: the component is not maintained, by the record's evidence. */
const FAILING: readonly State[] = ['abandoned', 'archived', 'deleted', 'eol'];
const FORMATS = ['table', 'json', 'sarif', 'markdown'];

export interface CheckOptions {
  url?: string;
  'as-of'?: string;
  format?: string;
  observe?: boolean;
  queue?: boolean;
  'fail-on'?: string;
}

/** Where the answer comes from when there is no --url: the local record (check.ts), or nowhere. */
export type LocalAnswer = (parsed: ParseResult, asOf: string | undefined, observe: boolean) => Promise<CheckAnswer>;

/** What a run ended with: the exit code, and, once there was an answer, what a caller may show of it. */
export interface CheckOutcome {
  exit: number;
  /** The sentence on stderr when it ended before an answer (a usage error, a service that did not answer). */
  problem?: string;
  answer?: CheckAnswer;
  /** `kind:id` → the lines of the file naming it. */
  lines?: Map<string, number[]>;
  /** The results in a state that fails the gate. */
  failing?: ComponentCheck[];
  /** The sentence on stderr naming them, when there are any. */
  gate?: string;
}

interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

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
  const failOn = failingStates(opts['fail-on']);
  if (typeof failOn === 'string') return usage(failOn);
  if (opts.observe && opts.url)
    return usage('--observe reads into the local record; with --url the service decides what it reads');
  if (opts.queue && !opts.url)
    return usage('--queue asks a service (--url) to queue what it does not hold; locally, --observe reads them now');
  const asOfWrong = asOf === undefined ? null : dateProblem('--as-of', asOf, utcDateOf(new Date()));
  if (asOfWrong !== null) return usage(asOfWrong);
  if (opts.format !== undefined && !FORMATS.includes(opts.format))
    return usage('--format is table, json, sarif or markdown');
  if (!opts.url && local === null) return usage('check needs --url: the address of a Tended service');
  let answer: CheckAnswer;
  let parsed: ParseResult;
  try {
    const read = parseCheckedFile(readCheckedFile(file), file, basename(file));
    parsed = read.parsed;
    answer = opts.url
      ? await remoteCheck(
          opts.url,
          read.text,
          basename(file),
          parsed.format === 'cyclonedx' || parsed.format === 'spdx',
          asOf,
          opts.queue === true,
        )
      : await local!(parsed, asOf, opts.observe === true);
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
  streams.stdout.write(report(answer, opts.format, file, lines));
  // A file read by its name as a format it is not (prose in a .txt read as requirements) passes
  // any gate with nothing checked: say so where a CI log shows it.
  if (answer.results_count === 0 && answer.unresolved_count > 0)
    streams.stderr.write(
      `tended: none of the ${plural(answer.unresolved_count, 'entry', 'entries')} of ${file}, read as ${answer.format}, names a component Tended reads: nothing was checked. Is it the file you meant?\n`,
    );
  const failing = answer.results.filter((r) => failOn.has(r.state));
  if (failing.length === 0) return { exit: EXIT.ok, answer, lines, failing };
  const gate = gateSentence(answer, failing, failOn, opts['fail-on'] === undefined);
  streams.stderr.write(`tended: ${gate}\n`);
  return { exit: EXIT.failed, answer, lines, failing, gate };
}

/** Why the exit code is 1, in one sentence a CI log shows: which components, in which state, read when. */
function gateSentence(
  answer: CheckAnswer,
  failing: CheckAnswer['results'],
  failOn: Set<string>,
  byDefault: boolean,
): string {
  const named = failing.slice(0, NAMED_IN_GATE).map((r) => {
    const where = r.input.locations[0]?.location;
    const read = r.observation_date === null ? 'nothing observed' : `observed ${r.observation_date}`;
    return `${r.kind}:${r.input.name} ${r.state} (${read}${where ? `, ${where}` : ''})`;
  });
  if (failing.length > NAMED_IN_GATE) named.push(`and ${plural(failing.length - NAMED_IN_GATE, 'more', 'more')}`);
  const states = [...failOn].join(', ');
  return (
    `the check fails: ${failing.length} of ${plural(answer.results.length, 'component', 'components')} ` +
    `as of ${answer.as_of} ${failing.length === 1 ? 'is' : 'are'} in a state that fails it ` +
    `(${byDefault ? `by default ${states}; --fail-on chooses others, or none` : `--fail-on ${states}`}): ${named.join('; ')}.`
  );
}

function report(answer: CheckAnswer, format: string | undefined, file: string, lines: Map<string, number[]>): string {
  if (format === 'json') return `${JSON.stringify(answer, null, 2)}\n`;
  if (format === 'sarif') return `${JSON.stringify(sarifReport(answer, { file, lines }), null, 2)}\n`;
  if (format === 'markdown') return reviewComment(answer, file, lines);
  return table(answer);
}

/**
 * The lines of the file naming each component, from the local parse: the same file the service
 * read with --url, so its results name the same components. Formats whose parser keeps no lines
 * (the XML and TOML manifests, SBOMs) give none, and the reports say so.
 */
function referenceLines(parsed: ParseResult): Map<string, number[]> {
  const lines = new Map<string, number[]>();
  for (const r of parsed.references) {
    if (r.line === undefined) continue;
    const key = `${r.ref.kind}:${r.ref.id}`;
    const list = lines.get(key);
    if (list) list.push(r.line);
    else lines.set(key, [r.line]);
  }
  for (const list of lines.values()) list.sort((a, b) => a - b);
  return lines;
}

/**
 * `--fail-on`: the states that make the exit code 1, comma-separated, or `none` (report only).
 * Default: abandoned, archived, deleted, eol. A message when a word is not a state.
 */
function failingStates(raw: string | undefined): Set<string> | string {
  if (raw === undefined) return new Set(FAILING);
  const words = raw
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (words.length === 1 && words[0] === 'none') return new Set();
  const unknown = words.filter((w) => !isState(w));
  if (words.length === 0 || unknown.length > 0)
    return `--fail-on takes states separated by commas (${STATES.join(', ')}) or none; got ${JSON.stringify(raw.slice(0, 80))}`;
  return new Set(words);
}

export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

function table(answer: CheckAnswer): string {
  const rows = answer.results.map((r) => [
    // "not checked" where nothing was read, as the Markdown and SARIF reports say it.
    stateInWords(r.state, r.observation_date),
    r.observation_date ?? '-',
    r.censoring_status,
    `${r.kind}:${r.input.name}`,
    r.input.locations[0]?.location ?? '',
  ]);
  const header = ['state', 'observed', 'censoring', 'component', 'where'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  const out = [
    `as of ${answer.as_of} (${answer.format}): ${plural(answer.results_count, 'component', 'components')}, ${plural(answer.unresolved_count, 'entry', 'entries')} without one`,
    line(header),
  ];
  out.push(...rows.map(line));
  for (const u of answer.unresolved) out.push(`  unresolved ${u.location}: ${u.input} — ${u.reason}`);
  if (answer.discovery) out.push(answer.discovery.note);
  return `${out.join('\n')}\n`;
}
