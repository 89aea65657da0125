/**
 * The report of one checked file on stdout, in the format --format names: the table (by default),
 * the API's JSON, SARIF or Markdown; and the lines of the file naming each component, which SARIF,
 * Markdown and the Action point at.
 */
import { successorInWords } from '../domain/successor.js';
import { stateInWords } from '../domain/state.js';
import type { CheckAnswer } from '../operations/check-components.js';
import type { ParseResult } from '../parsers/reference.js';
import { plural } from './check-options.js';
import { exceptionOf } from '../operations/exception-mark.js';
import { policyInWords } from './policy.js';
import { reviewComment } from './review-comment.js';
import { sarifReport } from '../operations/sarif-report.js';
import {
  answerHasTree,
  answerHasVersions,
  pathInWords,
  scopeInWords,
  versionInWords,
} from '../operations/tree-words.js';

export function report(
  answer: CheckAnswer,
  format: string | undefined,
  file: string,
  lines: Map<string, number[]>,
): string {
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
export function referenceLines(parsed: ParseResult): Map<string, number[]> {
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

export function table(answer: CheckAnswer): string {
  const versions = answerHasVersions(answer);
  const tree = answerHasTree(answer);
  const paths = answer.results.some((r) => pathInWords(r) !== '');
  const successors = answer.results.some((r) => r.successor !== undefined);
  const policy = answer.results.some((r) => exceptionOf(r) !== undefined);
  const rows = answer.results.map((r) => [
    // "not checked" where nothing was read, as the Markdown and SARIF reports say it.
    stateInWords(r.state, r.observation_date),
    r.observation_date ?? '-',
    r.censoring_status,
    `${r.kind}:${r.input.name}`,
    ...(versions ? [versionInWords(r) || '-'] : []),
    ...(tree ? [scopeInWords(r) || '-'] : []),
    r.input.locations[0]?.location ?? '',
    ...(paths ? [pathInWords(r)] : []),
    ...(successors ? [successorInWords(r.successor) || '-'] : []),
    ...(policy ? [policyInWords(r)] : []),
  ]);
  const header = [
    'state',
    'observed',
    'censoring',
    'component',
    ...(versions ? ['version'] : []),
    ...(tree ? ['scope'] : []),
    'where',
    ...(paths ? ['path'] : []),
    ...(successors ? ['successor'] : []),
    ...(policy ? ['policy'] : []),
  ];
  const last = header.length - 1;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < last ? cell.padEnd(widths[i]!) : cell))
      .join('  ')
      .trimEnd();
  const out = [
    `as of ${answer.as_of} (${answer.format}): ${plural(answer.results_count, 'component', 'components')}, ${plural(answer.unresolved_count, 'entry', 'entries')} without one`,
    line(header),
  ];
  out.push(...rows.map(line));
  for (const u of answer.unresolved) out.push(`  unresolved ${u.location}: ${u.input} — ${u.reason}`);
  if (answer.discovery) out.push(answer.discovery.note);
  return `${out.join('\n')}\n`;
}
