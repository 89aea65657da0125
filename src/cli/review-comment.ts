import type { CheckAnswer } from '../operations/check-components.js';
import { stateInWords } from '../domain/state.js';
import { successorInWords } from '../domain/successor.js';
import { exceptionOf } from '../operations/exception-mark.js';
import { policyInWords } from './policy.js';
import {
  answerHasTree,
  answerHasVersions,
  pathInWords,
  scopeInWords,
  versionInWords,
} from '../operations/tree-words.js';

/**
 * `tended check FILE --format markdown` (issue 18): the answer as a table to paste into a pull
 * request comment. Each cell is escaped so no name, source or location can end a cell (`|`), break
 * the row (a line break) or open HTML (`<`).
 */
export function reviewComment(
  answer: CheckAnswer,
  file: string,
  lines: Map<string, number[]>,
  linesIn?: Map<string, string>,
): string {
  // The tree's columns come after the others, and only when the file says where its packages sit.
  const versions = answerHasVersions(answer);
  const tree = answerHasTree(answer);
  // A column only when a declaration in the answer names a replacement (methodology: successors).
  const successors = answer.results.some((r) => r.successor !== undefined);
  const policy = answer.results.some((r) => exceptionOf(r) !== undefined);
  const extra = [...treeHeader(versions, tree), ...(successors ? ['successor'] : []), ...(policy ? ['policy'] : [])];
  const out = [
    `**Tended check of \`${cell(file).replaceAll('`', "'")}\`**, as of ${answer.as_of} (${answer.format}): ` +
      `${answer.results_count} component${answer.results_count === 1 ? '' : 's'}, ` +
      `${answer.unresolved_count} entr${answer.unresolved_count === 1 ? 'y' : 'ies'} without one.`,
    '',
    row(['state', 'observed', 'component', 'line', 'where', 'source', ...extra]),
    row(['---', '---', '---', '---', '---', '---', ...extra.map(() => '---')]),
  ];
  for (const r of answer.results) {
    const key = `${r.kind}:${r.input.name}`;
    const at = lines.get(key);
    const inOther = linesIn?.get(key);
    out.push(
      row([
        stateInWords(r.state, r.observation_date),
        r.observation_date ?? '—',
        `${r.kind}:${r.input.name}`,
        at && at.length > 0 ? `${inOther ? `${inOther}:` : ''}${at.join(', ')}` : '—',
        r.input.locations.map((l) => l.location).join('; '),
        r.observation_date === null ? '—' : r.source,
        ...(versions ? [versionInWords(r) || '—'] : []),
        ...(tree ? [scopeInWords(r) || '—', pathInWords(r) || '—'] : []),
        ...(successors ? [successorInWords(r.successor) || '—'] : []),
        ...(policy ? [policyInWords(r) || '—'] : []),
      ]),
    );
  }
  if (answer.unresolved.length > 0) {
    out.push('', `Entries that name no component Tended observes (${answer.unresolved_count}):`, '');
    for (const u of answer.unresolved) out.push(`- ${cell(u.location)}: ${cell(u.input)} — ${cell(u.reason)}`);
  }
  if (answer.discovery) out.push('', cell(answer.discovery.note));
  out.push('', `${cell(answer.note)} Data: ${answer.license}. No score is computed.`);
  return `${out.join('\n')}\n`;
}

function treeHeader(versions: boolean, tree: boolean): string[] {
  return [...(versions ? ['version'] : []), ...(tree ? ['scope', 'path'] : [])];
}

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** One table cell's text: GitHub's Markdown ends a cell at an unescaped `|` and a row at a line break. */
export function cell(text: string): string {
  return text
    .replaceAll('\\', '\\\\')
    .replaceAll('|', '\\|')
    .replaceAll('<', '&lt;')
    .replaceAll('\r', ' ')
    .replaceAll('\n', ' ');
}
