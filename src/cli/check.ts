import { trimTrailing } from '../domain/text.js';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { decodeText } from '../parsers/decode-text.js';
import type { Config } from '../config/config.js';
import { isCalendarDate } from '../domain/calendar.js';
import { ValidationError } from '../domain/errors.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import { formatOfFilename, parseManifest, parseSbom } from '../operations/parse-submission.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { openObserver, openRecord } from './record.js';
import { Progress } from './progress.js';
import { observeNamed, type ObserverDeps } from '../operations/observe.js';
import { utcDateOf } from '../domain/calendar.js';
import type { CliWiring } from './wiring.js';
import { isState, stateInWords, STATES, type State } from '../domain/state.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from './sarif-report.js';

const READ_AT_ONCE = 8;

/** The states that fail a CI gate by default: the component is not maintained, by the record's evidence. */
const FAILING: readonly State[] = ['abandoned', 'archived', 'deleted', 'eol'];
const FORMATS = ['table', 'json', 'sarif', 'markdown'];

/**
 * `tended check FILE`: one dated result per component of a local manifest or SBOM, from the local
 * store or a running service (--url); exit code 1 when any is abandoned, archived, deleted or eol.
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
  if (asOf !== undefined && !isCalendarDate(asOf)) return usage(wiring, '--as-of takes a date written YYYY-MM-DD');
  if (opts.format !== undefined && !FORMATS.includes(opts.format))
    return usage(wiring, '--format is table, json, sarif or markdown');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return usage(wiring, `cannot read ${file}`);
  }
  const text = decodeText(bytes);
  let answer: CheckAnswer;
  let parsed: ParseResult;
  try {
    parsed = parseLocal(text, basename(file));
    answer = opts.url
      ? await remoteCheck(
          opts.url,
          text,
          basename(file),
          parsed.format === 'cyclonedx' || parsed.format === 'spdx',
          asOf,
          opts.queue === true,
        )
      : await localCheck(config, wiring, parsed, asOf, opts.observe === true);
  } catch (error) {
    if (error instanceof InputError || error instanceof ValidationError) {
      wiring.stderr.write(`tended: ${file}: ${error.message}\n`);
      return 2;
    }
    // Exit 2, not 1: a service that could not answer says nothing about the components (1 is the gate).
    if (error instanceof RemoteCheckError) return usage(wiring, error.message);
    throw error;
  }
  wiring.stdout.write(report(answer, opts.format, file, parsed));
  return answer.results.some((r) => failOn.has(r.state)) ? 1 : 0;
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
    if (observe) await observeUnread(deps as ObserverDeps, parsed, wiring);
    const answer = await checkComponents(deps, parsed, asOf);
    const unheld = answer.results.filter((r) => r.observation_date === null && r.last_asserted === null).length;
    if (unheld > 0 && !observe)
      answer.discovery = {
        unheld,
        queued: 0,
        not_queued: unheld,
        note: `The local record holds no observation of ${unheld.toLocaleString('en')} of these components on or before ${answer.as_of}. Run the same check with --observe to read them now, or with --url to ask a running service (add --queue to have it queue them).`,
      };
    return answer;
  } finally {
    await deps.store.close();
  }
}

/**
 * `--observe`: reads now, through the observer's own append path, every component of the file
 * that the local record holds no observation of today, so the answer rests on today's reading.
 * A failed read is recorded not_observed as any other; a read held back by a rate limit records
 * nothing (the answer then says "not checked").
 */
async function observeUnread(deps: ObserverDeps, parsed: ParseResult, wiring: CliWiring): Promise<void> {
  const today = utcDateOf(deps.clock.now());
  const refs = new Map(parsed.references.map((r) => [`${r.ref.kind}:${r.ref.id}`, r.ref]));
  const held = await deps.store.observationsOfMany([...refs.values()]);
  const unread = [...refs].filter(([key]) => !(held.get(key) ?? []).some((o) => o.observation_date === today));
  if (unread.length === 0) return;
  const progress = new Progress(wiring.stderr, 'observe', 'components', unread.length);
  const tty = (wiring.stderr as { isTTY?: boolean }).isTTY === true;
  // A few at a time, so the progress line moves while a large file is read.
  for (let i = 0; i < unread.length; i += READ_AT_ONCE) {
    const chunk = unread.slice(i, i + READ_AT_ONCE).map(([, ref]) => ref);
    await observeNamed(deps, chunk, READ_AT_ONCE);
    if (tty) progress.add(chunk.length);
  }
  if (tty) progress.finish();
}

/** A manifest when the file name says so; otherwise an SBOM if it reads as one, else a manifest by content. */
function parseLocal(text: string, filename: string): ParseResult {
  if (formatOfFilename(filename) !== null && !/sbom|\.spdx|\.cdx|bom\.(?:json|xml)$/i.test(filename))
    return parseManifest(text, { filename }, { lines: true });
  try {
    return parseSbom(text, '');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return parseManifest(text, { filename }, { lines: true });
  }
}

/** The service at --url could not give an answer: unreachable, not JSON, or an error status. */
class RemoteCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteCheckError';
  }
}

/** How long the service may take over one check: generous, since a large SBOM is read and answered whole. */
const REMOTE_TIMEOUT_MS = 120_000;

async function remoteCheck(
  url: string,
  text: string,
  filename: string,
  isSbom: boolean,
  asOf: string | undefined,
  queue: boolean,
): Promise<CheckAnswer> {
  const base = trimTrailing(url, '/');
  let parsedUrl: URL | null = null;
  try {
    parsedUrl = new URL(base);
  } catch {
    // reported below
  }
  if (!parsedUrl || (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')) {
    throw new RemoteCheckError(
      `--url ${url} is not an http:// or https:// address of a Tended service, e.g. https://tended.example`,
    );
  }
  const params = new URLSearchParams();
  if (asOf) params.set('as_of', asOf);
  if (queue) params.set('queue', 'true');
  const query = params.size > 0 ? `?${params.toString()}` : '';
  const request = isSbom
    ? { path: '/api/v1/sbom', type: 'text/plain', body: text }
    : { path: '/api/v1/manifest', type: 'application/json', body: JSON.stringify({ filename, content: text }) };
  const target = `${base}${request.path}`;
  let response: Response;
  try {
    response = await fetch(`${target}${query}`, {
      method: 'POST',
      headers: { 'content-type': request.type, accept: 'application/json' },
      body: request.body,
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new RemoteCheckError(
      `could not reach ${target}: ${networkProblem(error)}; check --url and that the service is running. Nothing was checked.`,
    );
  }
  const reply = await response.text().catch(() => null);
  let body: unknown;
  try {
    body = reply === null ? undefined : JSON.parse(reply);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const detail = detailOf(body);
    throw new RemoteCheckError(
      `${target} answered ${response.status} ${response.statusText}`.trimEnd() +
        (detail ? `: ${detail}` : '; nothing was checked.'),
    );
  }
  if (!isCheckAnswer(body)) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new RemoteCheckError(
      `${target} answered ${response.status} with something other than a Tended check answer (${type.slice(0, 60)}); is --url the address of a Tended service?`,
    );
  }
  return body;
}

function networkProblem(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${REMOTE_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') {
    const known: Record<string, string> = {
      ECONNREFUSED: 'the connection was refused (ECONNREFUSED)',
      ENOTFOUND: 'the host name does not resolve (ENOTFOUND)',
      ECONNRESET: 'the connection was reset (ECONNRESET)',
      ETIMEDOUT: 'the connection timed out (ETIMEDOUT)',
    };
    return known[cause.code] ?? cause.code;
  }
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** The service's own explanation: `detail` as a sentence, or the 422 list's messages. */
function detailOf(body: unknown): string | null {
  const detail = (body as { detail?: unknown } | null | undefined)?.detail;
  if (typeof detail === 'string') return detail.slice(0, 500);
  if (Array.isArray(detail)) {
    const msgs = (detail as unknown[]).map((item) => {
      const d = item as { msg?: unknown; loc?: unknown } | null;
      if (typeof d?.msg !== 'string') return JSON.stringify(d);
      return Array.isArray(d.loc) ? `${d.loc.map(String).join('.')}: ${d.msg}` : d.msg;
    });
    return msgs.join('; ').slice(0, 500);
  }
  return null;
}

function isCheckAnswer(body: unknown): body is CheckAnswer {
  const b = body as Partial<CheckAnswer> | null | undefined;
  return (
    typeof b === 'object' &&
    b !== null &&
    Array.isArray(b.results) &&
    Array.isArray(b.unresolved) &&
    typeof b.as_of === 'string'
  );
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
    `as of ${answer.as_of} (${answer.format}): ${answer.results_count} components, ${answer.unresolved_count} entries without one`,
    line(header),
  ];
  out.push(...rows.map(line));
  for (const u of answer.unresolved) out.push(`  unresolved ${u.location}: ${u.input} — ${u.reason}`);
  if (answer.discovery) out.push(answer.discovery.note);
  return `${out.join('\n')}\n`;
}

function usage(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return 2;
}
