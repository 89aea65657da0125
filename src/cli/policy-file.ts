/**
 * The policy file of `tended check` (`.tended.yml`, or `--policy FILE`; docs/cli.md "The policy
 * file"): which states fail the gate, which results can fail it, and exceptions, each with a
 * reason and an expiry date. Read strictly: an unknown key, a state that is not one, a date that
 * is not a day is a usage error naming its line and field, because a typo in a gate's policy must
 * never quietly let the gate pass.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { STATES, isState } from '../domain/state.js';
import { componentPattern, type ComponentPattern } from './component-pattern.js';
import { dateProblem } from './date-option.js';
import { readInputFile } from './input-file.js';

/** The name looked for when no --policy is given. */
export const POLICY_FILE = '.tended.yml';
/** A policy is a page of YAML, not a data set: beyond this it is refused before it is parsed. */
const MAX_POLICY_BYTES = 256 * 1024;
/** Each result is matched against every pattern: this bounds that work. */
export const MAX_EXCEPTIONS = 1000;
const MAX_REASON = 500;
const MAX_PATTERN = 200;
/** How many problems one run lists; a file with more has the rest said as a count. */
const LISTED_PROBLEMS = 20;

export interface PolicyException {
  component: ComponentPattern;
  reason: string;
  /** The last day the exception holds (YYYY-MM-DD, UTC); from the day after, it has expired. */
  expires: string;
  /** Where the policy says it: `.tended.yml line 9`. */
  at: string;
  line: number;
}

export interface Policy {
  /** The path the policy was read from, as the sentences name it. */
  file: string;
  /** `fail_on`, when the file sets it: the states that fail the gate ([] for none). */
  failOn?: string[];
  /** `scope`, when the file sets it. */
  scope?: 'direct' | 'all';
  exceptions: PolicyException[];
}

/** A policy that cannot be used: every problem found, each naming its line and field. */
export class PolicyError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    const listed = problems.slice(0, LISTED_PROBLEMS);
    if (problems.length > LISTED_PROBLEMS) listed.push(`and ${problems.length - LISTED_PROBLEMS} more`);
    super(
      `the policy ${file} cannot be used, so nothing was checked: ${listed.join('; ')}. Its format: docs/cli.md "The policy file".`,
    );
    this.name = 'PolicyError';
  }
}

/**
 * The policy that applies: `--policy FILE` when given; else `.tended.yml` in the directory
 * checked (a DIR, or the directory of the FILE), else in the current directory; else none.
 */
export function findPolicy(named: string | undefined, checked: string, checkedIsDirectory: boolean): Policy | null {
  if (named !== undefined) return readPolicy(named);
  const places = [join(checkedIsDirectory ? checked : dirname(checked), POLICY_FILE), POLICY_FILE];
  const found = places.find((p) => existsSync(p));
  return found === undefined ? null : readPolicy(found);
}

export function readPolicy(file: string): Policy {
  const bytes = readInputFile(file);
  if (bytes.length > MAX_POLICY_BYTES)
    throw new PolicyError(file, [`it is ${bytes.length.toLocaleString('en')} bytes; a policy may be at most 256 KiB`]);
  return parsePolicy(bytes.toString('utf8'), file);
}

const KEYS = ['fail_on', 'scope', 'exceptions'];
const EXCEPTION_KEYS = ['component', 'reason', 'expires'];

export function parsePolicy(text: string, file: string): Policy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const problems: string[] = [];
  const lineOf = (node: Node | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  const at = (node: Node | null | undefined, field: string) => `line ${lineOf(node)}, ${field}`;
  for (const e of doc.errors) problems.push(`line ${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}`);
  if (problems.length > 0) throw new PolicyError(file, problems);
  const policy: Policy = { file, exceptions: [] };
  const root = doc.contents;
  // An empty file is a policy that sets nothing.
  if (root === null || (isScalar(root) && root.value === null)) return policy;
  if (!isMap(root)) throw new PolicyError(file, [`line ${lineOf(root)}: a policy is a mapping of ${KEYS.join(', ')}`]);
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value as Node | null;
    const keyNode = pair.key as Node;
    if (key === 'fail_on') {
      const failOn = failOnOf(value);
      if (typeof failOn === 'string') problems.push(`${at(value ?? keyNode, 'fail_on')}: ${failOn}`);
      else policy.failOn = failOn;
    } else if (key === 'scope') {
      const scope = isScalar(value) ? value.value : undefined;
      if (scope === 'direct' || scope === 'all') policy.scope = scope;
      else problems.push(`${at(value ?? keyNode, 'scope')}: is direct or all; got ${shown(value)}`);
    } else if (key === 'exceptions') {
      if (value === null || (isScalar(value) && value.value === null)) continue;
      if (!isSeq(value)) {
        problems.push(`${at(value, 'exceptions')}: is a list, each item with ${EXCEPTION_KEYS.join(', ')}`);
        continue;
      }
      if (value.items.length > MAX_EXCEPTIONS)
        problems.push(
          `${at(value, 'exceptions')}: holds ${value.items.length}; a policy may hold at most ${MAX_EXCEPTIONS}`,
        );
      value.items.forEach((item, i) => {
        const exception = exceptionOf(item as Node, `exceptions[${i}]`, at, file, lineOf, problems);
        if (exception) policy.exceptions.push(exception);
      });
    } else problems.push(`${at(keyNode, key)}: is not a key of a policy (they are ${KEYS.join(', ')})`);
  }
  duplicates(policy.exceptions, problems);
  if (problems.length > 0) throw new PolicyError(file, problems);
  return policy;
}

/** `fail_on`: a list of states, the same words --fail-on takes; `none` or [] for none. */
function failOnOf(value: Node | null): string[] | string {
  const what = `is a list of states (${STATES.join(', ')}), or none`;
  if (isScalar(value) && value.value === 'none') return [];
  if (!isSeq(value)) return `${what}; got ${shown(value)}`;
  const words = value.items.map((item) => (isScalar(item) ? String(item.value) : ''));
  const wrong = words.filter((w) => !isState(w));
  if (wrong.length > 0) return `${what}; ${wrong.map((w) => JSON.stringify(w.slice(0, 40))).join(', ')} is not a state`;
  return words;
}

function exceptionOf(
  item: Node,
  field: string,
  at: (node: Node | null | undefined, field: string) => string,
  file: string,
  lineOf: (node: Node | null | undefined) => number,
  problems: string[],
): PolicyException | null {
  if (!isMap(item)) {
    problems.push(`${at(item, field)}: is a mapping with ${EXCEPTION_KEYS.join(', ')}`);
    return null;
  }
  const values = new Map<string, Node | null>();
  for (const pair of item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (EXCEPTION_KEYS.includes(key)) values.set(key, pair.value as Node | null);
    else
      problems.push(
        `${at(pair.key as Node, `${field}.${key}`)}: is not a key of an exception (they are ${EXCEPTION_KEYS.join(', ')})`,
      );
  }
  const before = problems.length;
  const text = (key: string, max: number): string | null => {
    const node = values.get(key);
    if (!values.has(key)) {
      problems.push(`${at(item, `${field}.${key}`)}: is required`);
      return null;
    }
    const scalar = isScalar(node) ? node.value : null;
    const value = typeof scalar === 'string' || typeof scalar === 'number' ? String(scalar).trim() : null;
    if (value === null || value === '')
      problems.push(`${at(node ?? item, `${field}.${key}`)}: must be text, not empty; got ${shown(node)}`);
    else if (value.length > max) problems.push(`${at(node, `${field}.${key}`)}: is longer than ${max} characters`);
    else return value;
    return null;
  };
  const written = text('component', MAX_PATTERN);
  const component = written === null ? null : componentPattern(written);
  if (typeof component === 'string')
    problems.push(`${at(values.get('component'), `${field}.component`)}: ${component}`);
  const reason = text('reason', MAX_REASON);
  const expires = text('expires', 10 + 40);
  if (expires !== null) {
    const wrong = dateProblem(`${at(values.get('expires'), `${field}.expires`)}:`, expires, null);
    if (wrong !== null) problems.push(wrong.replace(/: ([^ ]+) is not a date/, ": '$1' is not a date (YYYY-MM-DD)"));
  }
  if (problems.length > before || component === null || typeof component === 'string') return null;
  return { component, reason: reason!, expires: expires!, at: `${file} line ${lineOf(item)}`, line: lineOf(item) };
}

/** The same component written twice: which reason and date hold would depend on the order. */
function duplicates(exceptions: PolicyException[], problems: string[]): void {
  const seen = new Map<string, PolicyException>();
  for (const e of exceptions) {
    const key =
      e.component.id !== undefined ? `${e.component.kind}:${e.component.id}` : e.component.written.toLowerCase();
    const first = seen.get(key);
    if (first) problems.push(`line ${e.line}, component: ${e.component.written} is excepted already (${first.at})`);
    else seen.set(key, e);
  }
}

function shown(node: Node | null | undefined): string {
  if (node === null || node === undefined || (isScalar(node) && node.value === null)) return 'nothing';
  if (isScalar(node)) return JSON.stringify(String(node.value).slice(0, 40));
  return isSeq(node) ? 'a list' : 'a mapping';
}
