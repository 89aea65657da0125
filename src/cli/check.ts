import { basename } from 'node:path';
import type { Config } from '../config/config.js';
import { utcDateOf } from '../domain/calendar.js';
import { ValidationError } from '../domain/errors.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { openObserver, openRecord } from './record.js';
import { Progress } from './progress.js';
import { observeNamed, type NotShownPublic, type ObserverDeps } from '../operations/observe.js';
import type { CliWiring } from './wiring.js';
import { isState, stateInWords, STATES, type State } from '../domain/state.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from './sarif-report.js';
import { parseCheckedFile, readCheckedFile } from './check-file.js';
import { dateProblem } from './date-option.js';
import { InputFileError } from './input-file.js';
import { remoteCheck } from './remote-check.js';
import { ServiceError } from './service-fetch.js';
import { EXIT } from './exit-codes.js';

const READ_AT_ONCE = 8;
/** Off a terminal, --observe says how far it got this often: a CI log silent for a minute looks stuck. */
const LOG_EVERY_MS = 5_000;
/** The failing components the gate's sentence names; the report on stdout has them all. */
const NAMED_IN_GATE = 10;

/** The states that fail a CI gate by default: the component is not maintained, by the record's evidence. */
const FAILING: readonly State[] = ['abandoned', 'archived', 'deleted', 'eol'];
const FORMATS = ['table', 'json', 'sarif', 'markdown'];

/**
 * `tended check FILE`: one dated result per component of a local manifest or SBOM, from the local
 * store or a running service (--url). Exit codes (exit-codes.ts): 1 when any is in a failing state,
 * with a sentence on stderr naming them; 2 for a usage error; 3 when the service did not answer.
 */
export async function checkCommand(
  config: Config,
  wiring: CliWiring,
  file: string,
  opts: { url?: string; 'as-of'?: string; format?: string; observe?: boolean; queue?: boolean; 'fail-on'?: string },
): Promise<number> {
  const asOf = opts['as-of'];
  const failOn = failingStates(opts['fail-on']);
  if (typeof failOn === 'string') return usage(wiring, failOn);
  if (opts.observe && opts.url)
    return usage(wiring, '--observe reads into the local record; with --url the service decides what it reads');
  if (opts.queue && !opts.url)
    return usage(
      wiring,
      '--queue asks a service (--url) to queue what it does not hold; locally, --observe reads them now',
    );
  const asOfWrong = asOf === undefined ? null : dateProblem('--as-of', asOf, utcDateOf(new Date()));
  if (asOfWrong !== null) return usage(wiring, asOfWrong);
  if (opts.format !== undefined && !FORMATS.includes(opts.format))
    return usage(wiring, '--format is table, json, sarif or markdown');
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
      : await localCheck(config, wiring, parsed, asOf, opts.observe === true);
  } catch (error) {
    if (error instanceof InputFileError) return usage(wiring, error.message);
    if (error instanceof InputError || error instanceof ValidationError)
      return usage(wiring, `${file}: ${error.message}`);
    if (error instanceof ServiceError) {
      wiring.stderr.write(`tended: ${error.message}\n`);
      return error.exit;
    }
    throw error;
  }
  wiring.stdout.write(report(answer, opts.format, file, parsed));
  // A file read by its name as a format it is not (prose in a .txt read as requirements) passes
  // any gate with nothing checked: say so where a CI log shows it.
  if (answer.results_count === 0 && answer.unresolved_count > 0)
    wiring.stderr.write(
      `tended: none of the ${plural(answer.unresolved_count, 'entry', 'entries')} of ${file}, read as ${answer.format}, names a component Tended reads: nothing was checked. Is it the file you meant?\n`,
    );
  const failing = answer.results.filter((r) => failOn.has(r.state));
  if (failing.length === 0) return EXIT.ok;
  wiring.stderr.write(`tended: ${gateSentence(answer, failing, failOn, opts['fail-on'] === undefined)}\n`);
  return EXIT.failed;
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

function report(answer: CheckAnswer, format: string | undefined, file: string, parsed: ParseResult): string {
  if (format === 'json') return `${JSON.stringify(answer, null, 2)}\n`;
  if (format === 'sarif')
    return `${JSON.stringify(sarifReport(answer, { file, lines: referenceLines(parsed) }), null, 2)}\n`;
  if (format === 'markdown') return reviewComment(answer, file, referenceLines(parsed));
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

async function localCheck(
  config: Config,
  wiring: CliWiring,
  parsed: ParseResult,
  asOf: string | undefined,
  observe: boolean,
): Promise<CheckAnswer> {
  const deps = observe ? await openObserver(config, wiring) : await openRecord(config, wiring, { readOnly: true });
  try {
    const notShown = observe ? await observeUnread(deps as ObserverDeps, parsed, wiring) : [];
    const answer = await checkComponents(deps, parsed, asOf);
    const unheld = answer.results.filter((r) => r.observation_date === null && r.last_asserted === null).length;
    if (unheld > 0 && !observe)
      answer.discovery = {
        unheld,
        queued: 0,
        not_queued: unheld,
        note: `The local record holds no observation of ${unheld.toLocaleString('en')} of these components on or before ${answer.as_of}. Run the same check with --observe to read them now, or with --url to ask a running service (add --queue to have it queue them).`,
      };
    if (notShown.length > 0) answer.discovery = { unheld, queued: 0, not_queued: unheld, note: notShownNote(notShown) };
    return answer;
  } finally {
    await deps.store.close();
  }
}

/** What --observe says of the names whose first read did not show them public (nothing was recorded for them). */
function notShownNote(notShown: NotShownPublic[]): string {
  const names = (met: NotShownPublic['met']) =>
    notShown.filter((n) => n.met === met).map((n) => `${n.component.kind}:${n.component.id}`);
  const parts: string[] = [];
  const notFound = names('not_found');
  const failed = names('failed');
  if (notFound.length > 0)
    parts.push(
      `Not shown public by a first read (its registry answered not found, or holds the name as deleted), so nothing was recorded: a private package, a typo, or one withdrawn before it was ever read; Tended records a name only once its registry has shown it public: ${list(notFound)}.`,
    );
  if (failed.length > 0)
    parts.push(
      `The first read failed (a rate limit, a time-out, a server error), so nothing was recorded; run the check again later: ${list(failed)}.`,
    );
  return parts.join(' ');
}

function list(names: string[]): string {
  return names.length <= NAMED_IN_GATE
    ? names.join(', ')
    : `${names.slice(0, NAMED_IN_GATE).join(', ')} and ${names.length - NAMED_IN_GATE} more`;
}

/**
 * `--observe`: reads now, through the observer's own append path, every component of the file
 * that the local record holds no observation of today, so the answer rests on today's reading.
 * A name the record never held is recorded only once a read shows it public (discovery's rule):
 * the names returned met a not-found or a failure and have no observation. A read held back by a
 * rate limit records nothing (the answer then says "not checked").
 */
async function observeUnread(deps: ObserverDeps, parsed: ParseResult, wiring: CliWiring): Promise<NotShownPublic[]> {
  const today = utcDateOf(deps.clock.now());
  const refs = new Map(parsed.references.map((r) => [`${r.ref.kind}:${r.ref.id}`, r.ref]));
  const held = await deps.store.observationsOfMany([...refs.values()]);
  const unread = [...refs].filter(([key]) => !(held.get(key) ?? []).some((o) => o.observation_date === today));
  if (unread.length === 0) return [];
  const tty = (wiring.stderr as { isTTY?: boolean }).isTTY === true;
  if (!tty)
    wiring.stderr.write(
      `observe: reading ${plural(unread.length, 'component', 'components')} the local record holds no observation of today\n`,
    );
  const progress = new Progress(wiring.stderr, 'observe', 'components', unread.length, undefined, LOG_EVERY_MS);
  const notShown: NotShownPublic[] = [];
  // A few at a time, so the progress line moves while a large file is read.
  for (let i = 0; i < unread.length; i += READ_AT_ONCE) {
    const chunk = unread.slice(i, i + READ_AT_ONCE).map(([, ref]) => ref);
    notShown.push(...(await observeNamed(deps, chunk, READ_AT_ONCE, { publicFirst: true })).not_shown);
    progress.add(chunk.length);
  }
  progress.finish();
  return notShown;
}

function plural(n: number, one: string, many: string): string {
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

function usage(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return EXIT.usage;
}
