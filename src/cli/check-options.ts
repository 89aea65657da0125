/**
 * `tended check`'s options, checked before anything is read, and its gate: which results make the
 * exit code 1 (`--fail-on`, `--scope`) and the sentence on stderr that names them. Shared by the
 * check of one file and of a directory (check-dir.ts), and free of storage, as check-run.ts is.
 */
import { utcDateOf } from '../domain/calendar.js';
import { isState, STATES, type State } from '../domain/state.js';
import type { ComponentCheck } from '../operations/check-components.js';
import { dateProblem } from './date-option.js';
import type { PolicyException } from './policy-file.js';
import { countsAsDirect } from '../operations/tree-words.js';

/** The failing components the gate's sentence names; the report on stdout has them all. */
export const NAMED_IN_GATE = 10;

/** The states that fail a CI gate by default: the component is not maintained, by the record's evidence. */
const FAILING: readonly State[] = ['abandoned', 'archived', 'deleted', 'eol'];
const FORMATS = ['table', 'json', 'sarif', 'markdown', 'cyclonedx', 'spdx'];

export interface CheckOptions {
  url?: string;
  'as-of'?: string;
  format?: string;
  observe?: boolean;
  queue?: boolean;
  'fail-on'?: string;
  /** `all` (the default) or `direct`: which results the gate considers. */
  scope?: string;
  /** The policy file (policy-file.ts); without it, `.tended.yml` where it is looked for. */
  policy?: string;
}

/** The options once checked. */
export interface Gate {
  failOn: Set<string>;
  byDefault: boolean;
  /** `--scope direct`: only direct results (and those whose file does not say) fail the gate. */
  directOnly: boolean;
  /** The policy's exceptions (policy.ts), when a policy applies. */
  exceptions?: PolicyException[];
  /** How the gate's sentence names where its states and scope came from, when a policy set them. */
  said?: { failOn?: string; scope?: string };
}

/** The gate the options ask for, or the sentence saying which option is wrong (a usage error). */
export function checkOptions(opts: CheckOptions, hasLocal: boolean): Gate | string {
  const failOn = failingStates(opts['fail-on']);
  if (typeof failOn === 'string') return failOn;
  if (opts.scope !== undefined && opts.scope !== 'direct' && opts.scope !== 'all')
    return `--scope is direct or all (the default); got ${JSON.stringify(opts.scope.slice(0, 40))}`;
  if (opts.observe && opts.url)
    return '--observe reads into the local record; with --url the service decides what it reads';
  if (opts.queue && !opts.url)
    return '--queue asks a service (--url) to queue what it does not hold; locally, --observe reads them now';
  const asOf = opts['as-of'];
  const asOfWrong = asOf === undefined ? null : dateProblem('--as-of', asOf, utcDateOf(new Date()));
  if (asOfWrong !== null) return asOfWrong;
  if (opts.format !== undefined && !FORMATS.includes(opts.format))
    return '--format is table, json, sarif, markdown, cyclonedx or spdx';
  if (!opts.url && !hasLocal) return 'check needs --url: the address of a Tended service';
  return { failOn, byDefault: opts['fail-on'] === undefined, directOnly: opts.scope === 'direct' };
}

/** The results that fail the gate. */
export function failingOf(results: ComponentCheck[], gate: Gate): ComponentCheck[] {
  return results.filter((r) => gate.failOn.has(r.state) && (!gate.directOnly || countsAsDirect(r)));
}

/**
 * Why the exit code is 1, in one sentence a CI log shows: which components, in which state, read
 * when, and where (`file` prefixes each when a directory was checked).
 */
export function gateSentence(
  asOf: string,
  total: number,
  failing: { result: ComponentCheck; file?: string }[],
  gate: Gate,
): string {
  const named = failing.slice(0, NAMED_IN_GATE).map(({ result: r, file }) => {
    const where = r.input.locations[0]?.location;
    const read = r.observation_date === null ? 'nothing observed' : `observed ${r.observation_date}`;
    const at = [file, where].filter((s) => s !== undefined && s !== '').join(' ');
    return `${r.kind}:${r.input.name} ${r.state} (${read}${at ? `, ${at}` : ''})`;
  });
  if (failing.length > NAMED_IN_GATE) named.push(`and ${plural(failing.length - NAMED_IN_GATE, 'more', 'more')}`);
  const states = [...gate.failOn].join(', ');
  const how =
    gate.said?.failOn ??
    (gate.byDefault ? `by default ${states}; --fail-on chooses others, or none` : `--fail-on ${states}`);
  return (
    `the check fails: ${failing.length} of ${plural(total, 'component', 'components')} ` +
    `as of ${asOf} ${failing.length === 1 ? 'is' : 'are'} in a state that fails it ` +
    `(${how}${gate.directOnly ? `; ${gate.said?.scope ?? '--scope direct'}` : ''}): ${named.join('; ')}.`
  );
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
