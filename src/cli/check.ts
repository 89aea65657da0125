import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { decodeText } from '../parsers/decode-text.js';
import type { Config } from '../config/config.js';
import { isCalendarDate } from '../domain/calendar.js';
import { ValidationError } from '../domain/errors.js';
import { checkComponents, type CheckAnswer } from '../operations/check-components.js';
import { formatOfFilename, parseManifest, parseSbom } from '../operations/parse-submission.js';
import { InputError, type ParseResult } from '../parsers/reference.js';
import { openRecord } from './record.js';
import type { CliWiring } from './run.js';

/** The states that fail a CI gate: the component is not maintained, by the record's evidence. */
const FAILING = new Set(['abandoned', 'archived', 'deleted', 'eol']);

/**
 * `tended check FILE`: one dated result per component of a local manifest or SBOM, from the local
 * store or a running service (--url); exit code 1 when any is abandoned, archived, deleted or eol.
 */
export async function checkCommand(
  config: Config,
  wiring: CliWiring,
  file: string,
  opts: { url?: string; 'as-of'?: string; format?: string },
): Promise<number> {
  const asOf = opts['as-of'];
  if (asOf !== undefined && !isCalendarDate(asOf)) return usage(wiring, '--as-of takes a date written YYYY-MM-DD');
  if (opts.format !== undefined && opts.format !== 'table' && opts.format !== 'json') return usage(wiring, '--format is table or json');
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return usage(wiring, `cannot read ${file}`);
  }
  const text = decodeText(bytes);
  let answer: CheckAnswer;
  try {
    const parsed = parseLocal(text, basename(file));
    answer = opts.url
      ? await remoteCheck(opts.url, text, basename(file), parsed.format === 'cyclonedx' || parsed.format === 'spdx', asOf)
      : await localCheck(config, wiring, parsed, asOf);
  } catch (error) {
    if (error instanceof InputError || error instanceof ValidationError) {
      wiring.stderr.write(`tended: ${file}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  wiring.stdout.write(opts.format === 'json' ? `${JSON.stringify(answer, null, 2)}\n` : table(answer));
  return answer.results.some((r) => FAILING.has(r.state)) ? 1 : 0;
}

async function localCheck(config: Config, wiring: CliWiring, parsed: ParseResult, asOf: string | undefined): Promise<CheckAnswer> {
  const deps = await openRecord(config, wiring, { readOnly: true });
  try {
    return await checkComponents(deps, parsed, asOf);
  } finally {
    await deps.store.close();
  }
}

/** A manifest when the file name says so; otherwise an SBOM if it reads as one, else a manifest by content. */
function parseLocal(text: string, filename: string): ParseResult {
  if (formatOfFilename(filename) !== null && !/sbom|\.spdx|\.cdx|bom\.(json|xml)$/i.test(filename)) return parseManifest(text, { filename });
  try {
    return parseSbom(text, '');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return parseManifest(text, { filename });
  }
}

async function remoteCheck(url: string, text: string, filename: string, isSbom: boolean, asOf: string | undefined): Promise<CheckAnswer> {
  const base = url.replace(/\/+$/, '');
  const query = asOf ? `?as_of=${asOf}` : '';
  const request = isSbom
    ? { path: '/api/v1/sbom', type: 'text/plain', body: text }
    : { path: '/api/v1/manifest', type: 'application/json', body: JSON.stringify({ filename, content: text }) };
  const response = await fetch(`${base}${request.path}${query}`, { method: 'POST', headers: { 'content-type': request.type }, body: request.body });
  const body = (await response.json()) as CheckAnswer | { detail: unknown };
  if (!response.ok) throw new InputError(`${base} answered ${response.status}: ${JSON.stringify((body as { detail: unknown }).detail).slice(0, 300)}`);
  return body as CheckAnswer;
}

function table(answer: CheckAnswer): string {
  const rows = answer.results.map((r) => [r.state, r.observation_date ?? '-', r.censoring_status, `${r.kind}:${r.input.name}`, r.input.locations[0]?.location ?? '']);
  const header = ['state', 'observed', 'censoring', 'component', 'where'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  const out = [`as of ${answer.as_of} (${answer.format}): ${answer.results_count} components, ${answer.unresolved_count} entries without one`, line(header)];
  out.push(...rows.map(line));
  for (const u of answer.unresolved) out.push(`  unresolved ${u.location}: ${u.input} — ${u.reason}`);
  return `${out.join('\n')}\n`;
}

function usage(wiring: CliWiring, message: string): number {
  wiring.stderr.write(`tended: ${message}\n`);
  return 2;
}
