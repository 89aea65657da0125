/**
 * The GitHub Action (action.yml): `tended check FILE|DIR --url URL` run as a JavaScript action, the
 * whole of it bundled into action/dist/index.js (action/bundle.ts) so a run starts without
 * installing anything. It runs the CLI's own check (src/cli/check-run.ts, which needs no store)
 * and adds what a workflow run shows: the report in a file and in the job summary, an annotation
 * on each manifest line that names a component not maintained, and the exit code of `tended check`.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { runCheck } from '../src/cli/check-run.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { directoryReport } from '../src/cli/check-dir.js';
import { reviewComment } from '../src/cli/review-comment.js';
import { exceptionInWords, exceptionOf } from '../src/operations/exception-mark.js';
import { placeInWords } from '../src/operations/tree-words.js';
import { stateInWords } from '../src/domain/state.js';
import type { CheckAnswer, ComponentCheck } from '../src/operations/check-components.js';

/** States the record shows are not, or no longer fully, maintained: worth a line's annotation. */
const NOTED = new Set(['abandoned', 'archived', 'deleted', 'eol', 'dormant']);

/**
 * An input as the runner passes it: `INPUT_` and the name upper-cased, hyphens kept
 * (`INPUT_FAIL-ON`), the action.yml default already filled in; trimmed, as @actions/core does.
 */
function input(name: string): string {
  return (process.env[`INPUT_${name.replaceAll(' ', '_').toUpperCase()}`] ?? '').trim();
}

/** Workflow-command escaping: a message's `%` and line breaks, and a property's `:` and `,` too. */
function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function annotate(level: 'error' | 'warning', message: string, at?: { file: string; line?: number; title: string }) {
  const props = at
    ? ` ${[`file=${escapeProperty(at.file)}`, ...(at.line ? [`line=${at.line}`] : []), `title=${escapeProperty(at.title)}`].join(',')}`
    : '';
  process.stdout.write(`::${level}${props}::${escapeData(message)}\n`);
}

/** One line of GITHUB_OUTPUT; the delimited form when the value could end the line early. */
function setOutput(name: string, value: string): void {
  const path = process.env.GITHUB_OUTPUT;
  if (!path) return;
  const delimiter = `ghadelimiter_${process.pid}_${Date.now()}`;
  appendFileSync(path, /[\r\n]/.test(value) ? `${name}<<${delimiter}\n${value}\n${delimiter}\n` : `${name}=${value}\n`);
}

function summary(markdown: string): void {
  const path = process.env.GITHUB_STEP_SUMMARY;
  if (path) appendFileSync(path, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
}

/**
 * An error annotation for each component in a state that fails the gate (the step fails with it),
 * a warning for one the record shows is not maintained but which the gate lets pass (fail-on
 * chose other states, or none, or the policy excepts it, which the annotation says), at the line of the file naming it when the parser keeps lines.
 */
function annotateResults(
  answer: CheckAnswer,
  file: string,
  lines: Map<string, number[]>,
  failing: ComponentCheck[],
  linesIn?: Map<string, string>,
) {
  const fails = new Set(failing);
  for (const r of answer.results) {
    if (!fails.has(r) && !NOTED.has(r.state)) continue;
    const component = `${r.kind}:${r.input.name}`;
    const words = stateInWords(r.state, r.observation_date);
    const place = placeInWords(r);
    const read =
      r.observation_date === null
        ? 'nothing observed'
        : `observed ${r.observation_date}, ${r.censoring_status}, as of ${answer.as_of}; source ${r.source}; log leaf ${r.leaf_index}`;
    const mark = exceptionOf(r);
    const policy = mark === undefined ? '' : ` ${exceptionInWords(mark)} (${mark.policy}).`;
    annotate(
      fails.has(r) ? 'error' : 'warning',
      `${component}${place ? ` (${place})` : ''} is ${words} (${read}).${policy}`,
      {
        file: linesIn?.get(component) ?? file,
        line: lines.get(component)?.[0],
        title: `Tended: ${component} ${words}`,
      },
    );
  }
}

async function main(): Promise<number> {
  const file = input('file');
  const url = input('url');
  const output = input('output') || 'tended.sarif';
  const problem = (message: string) => {
    annotate('error', message);
    summary(`**Tended could not check \`${file || '(no file)'}\`**: ${message}`);
  };
  // Both are required in action.yml; a workflow that passes an empty expression still gets a sentence.
  if (!file || !url) {
    problem(
      `the ${!file ? 'file' : 'url'} input is required: ${!file ? 'the manifest, lockfile or SBOM to check, or a directory' : 'the address of the Tended service to ask, e.g. https://tended.example'}.`,
    );
    return EXIT.usage;
  }
  let report = '';
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      report += chunk.toString();
      done();
    },
  });
  const outcome = await runCheck(
    { stdout, stderr: process.stderr },
    file,
    {
      url,
      'as-of': input('as-of') || undefined,
      format: input('format') || 'sarif',
      'fail-on': input('fail-on') || undefined,
      scope: input('scope') || undefined,
      policy: input('policy') || undefined,
    },
    null,
  );
  // Written whatever the exit code, so a later step (if: always()) finds the report; empty when
  // there was no answer, as the composite's redirection left it.
  writeFileSync(output, report);
  setOutput('report', output);
  if (outcome.problem !== undefined) problem(outcome.problem);
  if (outcome.answer) {
    const lines = outcome.lines ?? new Map<string, number[]>();
    // An annotation's file is a path from the repository's root, however the input named it (./package.json).
    const fromRoot = relative(process.env.GITHUB_WORKSPACE ?? process.cwd(), resolve(file)).replaceAll('\\', '/');
    annotateResults(outcome.answer, fromRoot, lines, outcome.failing ?? []);
    const verdict = outcome.gate ? `**The check fails**: ${outcome.gate}` : '**The check passes.**';
    summary(`${reviewComment(outcome.answer, file, lines)}\n${verdict}\n`);
  }
  if (outcome.files) {
    // A directory: each file's path is relative to it; an annotation's, to the repository's root.
    const base = relative(process.env.GITHUB_WORKSPACE ?? process.cwd(), resolve(file)).replaceAll('\\', '/');
    const fromRoot = (f: string) => (base === '' ? f : `${base}/${f}`);
    for (const f of outcome.files) {
      if (!f.answer) continue;
      const linesIn = new Map([...(f.linesIn ?? [])].map(([key, at]) => [key, fromRoot(at)]));
      annotateResults(f.answer, fromRoot(f.file), f.lines ?? new Map<string, number[]>(), f.failing ?? [], linesIn);
    }
    const verdict = outcome.gate ? `**The check fails**: ${outcome.gate}` : '**The check passes.**';
    summary(`${directoryReport(file, outcome.files, 'markdown')}\n${verdict}\n`);
  }
  return outcome.exit;
}

process.exitCode = await main();
