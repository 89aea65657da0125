/**
 * The policy applied to a check's results (docs/cli.md "The policy file"): the gate takes its
 * failing states and scope from the file unless a flag names them (flags win), and each failing
 * result that an exception names is excepted until the exception's date, said in every report.
 * Past that date the exception fails the gate by name; an exception that names nothing checked
 * is a warning, because an allow-list nobody prunes ends up excepting what it was never meant to.
 */
import type { ComponentCheck } from '../operations/check-components.js';
import { stateInWords } from '../domain/state.js';
import { gateSentence, NAMED_IN_GATE, plural, type CheckOptions, type Gate } from './check-options.js';
import { patternMatches } from './component-pattern.js';
import type { Policy, PolicyException } from './policy-file.js';
import { exceptionInWords, exceptionOf, type Marked } from '../operations/exception-mark.js';

/** The policy's word on a result in a report's cell, or '' when no exception names it. */
export function policyInWords(r: ComponentCheck): string {
  const mark = exceptionOf(r);
  return mark === undefined ? '' : exceptionInWords(mark);
}

/** The gate the flags asked for, with what the policy sets where no flag set it, and its exceptions. */
export function withPolicy(gate: Gate, opts: CheckOptions, policy: Policy | null): Gate {
  if (policy === null) return gate;
  const out: Gate = { ...gate, exceptions: policy.exceptions, said: { ...gate.said } };
  if (opts['fail-on'] === undefined && policy.failOn !== undefined) {
    out.failOn = new Set(policy.failOn);
    out.byDefault = false;
    out.said!.failOn = `fail_on in ${policy.file}: ${policy.failOn.join(', ') || 'none'}`;
  }
  if (opts.scope === undefined && policy.scope !== undefined) {
    out.directOnly = policy.scope === 'direct';
    if (out.directOnly) out.said!.scope = `scope direct in ${policy.file}`;
  }
  return out;
}

export interface Judged<T> {
  /** What fails the gate: not excepted, or excepted by an exception that has expired. */
  failing: T[];
  /** The lines for stderr, in order: what was excepted, warnings, and why the gate fails. */
  lines: string[];
  /** The sentences saying why the gate fails, when it does. */
  gate?: string;
}

/**
 * The gate's verdict on `failing` (each result that is in a failing state and in scope), with the
 * exceptions of `gate` applied as of `asOf` (the answer's date: an exception holds through its
 * `expires` day). `all` is every result checked, for the exceptions that name none of them.
 * Marks each excepted result, so the reports say it.
 */
export function judge<T extends { result: ComponentCheck; file?: string }>(
  failing: T[],
  all: ComponentCheck[],
  gate: Gate,
  asOf: string,
): Judged<T> {
  const exceptions = gate.exceptions ?? [];
  const excepted: T[] = [];
  const unexcepted: T[] = [];
  const expired = new Map<PolicyException, T[]>();
  for (const f of failing) {
    const matching = exceptions.filter((e) => names(e, f.result));
    const holding = matching.find((e) => e.expires >= asOf);
    const chosen = holding ?? matching[0];
    if (chosen === undefined) {
      unexcepted.push(f);
      continue;
    }
    (f.result as Marked).exception = {
      component: chosen.component.written,
      reason: chosen.reason,
      expires: chosen.expires,
      status: holding ? 'excepted' : 'expired',
      policy: chosen.at,
    };
    if (holding) excepted.push(f);
    else expired.set(chosen, [...(expired.get(chosen) ?? []), f]);
  }
  const lines: string[] = [];
  if (excepted.length > 0) lines.push(exceptedLine(excepted));
  // With nothing answered (every file failed to read), no exception can be said to name nothing.
  for (const e of all.length > 0 ? exceptions : []) {
    if (expired.has(e)) continue;
    if (e.expires < asOf)
      lines.push(
        `warning: the exception for ${e.component.written} (${e.at}) expired on ${e.expires} and excepts nothing that fails the gate now; remove it (reason: ${e.reason})`,
      );
    else if (!all.some((r) => names(e, r)))
      lines.push(
        `warning: the exception for ${e.component.written} (${e.at}) names no component of what was checked; remove it if it is no longer needed (reason: ${e.reason})`,
      );
  }
  const sentences: string[] = [];
  if (unexcepted.length > 0) sentences.push(gateSentence(asOf, all.length, unexcepted, gate));
  for (const [e, hits] of expired) sentences.push(expiredSentence(e, hits));
  lines.push(...sentences);
  return {
    failing: [...unexcepted, ...[...expired.values()].flat()],
    lines,
    ...(sentences.length > 0 ? { gate: sentences.join(' ') } : {}),
  };
}

function names(e: PolicyException, r: ComponentCheck): boolean {
  return patternMatches(e.component, r.kind, r.input.name);
}

function named({ result: r, file }: { result: ComponentCheck; file?: string }): string {
  const read = r.observation_date === null ? 'nothing observed' : `observed ${r.observation_date}`;
  return `${file ? `${file} ` : ''}${r.kind}:${r.input.name} ${stateInWords(r.state, r.observation_date)} (${read})`;
}

function listed(
  items: { result: ComponentCheck; file?: string }[],
  say: (f: { result: ComponentCheck; file?: string }) => string,
): string {
  const out = items.slice(0, NAMED_IN_GATE).map(say);
  if (items.length > NAMED_IN_GATE) out.push(`and ${plural(items.length - NAMED_IN_GATE, 'more', 'more')}`);
  return out.join('; ');
}

function exceptedLine(excepted: { result: ComponentCheck; file?: string }[]): string {
  return `${plural(excepted.length, 'component', 'components')} in a failing state ${excepted.length === 1 ? 'is' : 'are'} excepted by the policy: ${listed(
    excepted,
    (f) => `${named(f)}, ${exceptionInWords(exceptionOf(f.result)!)} (${exceptionOf(f.result)!.policy})`,
  )}.`;
}

function expiredSentence(e: PolicyException, hits: { result: ComponentCheck; file?: string }[]): string {
  return (
    `the check fails: the exception for ${e.component.written} expired on ${e.expires} (reason: ${e.reason}; ${e.at}), ` +
    `so ${listed(hits, named)} fail${hits.length === 1 ? 's' : ''} the gate again; give it a new date and reason, or remove it.`
  );
}
