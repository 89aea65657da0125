import type { ComponentCheck, CheckAnswer } from './check-components.js';
import { successorInWords } from '../domain/successor.js';
import { NOT_CHECKED, STATES, STATE_DEFINITIONS, stateInWords, type State } from '../domain/state.js';
import { API_VERSION } from '../domain/api-version.js';
import { exceptionInWords, exceptionOf } from './exception-mark.js';
import { placeInWords, versionInWords } from './tree-words.js';

/**
 * `tended check FILE --format sarif` (issue 18): SARIF 2.1.0 for code scanning. One rule per
 * state, one result per component at the line of the manifest that names it. The level says how
 * far the record's evidence is from "maintained": error for a component the record shows is not
 * (abandoned, archived, deleted, eol), warning for dormant, note where the record asserts nothing
 * (not observed, not checked, stale), and a passing result for alive. Never a score.
 */
export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

type Level = 'error' | 'warning' | 'note' | 'none';

const LEVELS: Record<State, Level> = {
  abandoned: 'error',
  archived: 'error',
  deleted: 'error',
  eol: 'error',
  dormant: 'warning',
  not_observed: 'note',
  'unknown-stale': 'note',
  alive: 'none',
};

/** What each rule says, in the spec's words (§3); a result's message adds the definition for its kind. */
const RULES: Record<State, { name: string; text: string }> = {
  alive: { name: 'ComponentAlive', text: 'The component was read as maintained (alive) on the observation date.' },
  dormant: { name: 'ComponentDormant', text: 'The component was read as dormant: no activity for 180 to 365 days.' },
  abandoned: {
    name: 'ComponentAbandoned',
    text: 'The component was read as abandoned: no activity for more than 365 days.',
  },
  archived: { name: 'ComponentArchived', text: 'The component was read as archived or deprecated by its maintainers.' },
  deleted: { name: 'ComponentDeleted', text: 'An authoritative not-found was read for the component.' },
  eol: { name: 'ComponentEndOfLife', text: 'An end-of-life listing declares the component end-of-life.' },
  'unknown-stale': {
    name: 'ObservationStale',
    text: 'The latest observation is older than 180 days and was not re-verified; no state is asserted.',
  },
  not_observed: {
    name: 'NotObserved',
    text: 'No state was read: either the check met 403, 429, a time-out or a network failure, or the component is not checked (the record holds no observation of it on or before the date, so nothing was read). No state is asserted, and this is never "dead".',
  },
};

export interface SarifOptions {
  /** The manifest's path as given on the command line: each result's artifactLocation.uri. */
  file: string;
  /** `kind:id` → the lines naming it, ascending, from the local parse of the file. */
  lines: Map<string, number[]>;
  /** `kind:id` → the file its lines are in, when not `file` (a lockfile's direct dependency, named by its manifest). */
  linesIn?: Map<string, string>;
}

export function sarifReport(answer: CheckAnswer, options: SarifOptions): object {
  return sarifLog([{ answer, ...options }], {
    as_of: answer.as_of,
    format: answer.format,
    results_count: answer.results_count,
    unresolved_count: answer.unresolved_count,
    note: answer.note,
    license: answer.license,
  });
}

/**
 * One run of results from every file checked (`tended check DIR`), each located in its own file
 * (the path relative to DIR); `properties` say what the run as a whole was.
 */
export function sarifLog(files: (SarifOptions & { answer: CheckAnswer })[], properties: object): object {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Tended',
            semanticVersion: API_VERSION,
            rules: STATES.map((state) => ({
              id: state,
              name: RULES[state].name,
              shortDescription: { text: RULES[state].text },
              defaultConfiguration: { level: LEVELS[state] },
              properties: { tags: ['maintenance', 'supply-chain'] },
            })),
          },
        },
        results: files.flatMap(({ answer, file, lines, linesIn }) =>
          answer.results.map((r) => {
            const key = `${r.kind}:${r.input.name}`;
            return result(r, answer, uriOf(linesIn?.get(key) ?? file), lines.get(key));
          }),
        ),
        properties,
      },
    ],
  };
}

function uriOf(file: string): string {
  return encodeURI(file.replaceAll('\\', '/'));
}

function result(r: ComponentCheck, answer: CheckAnswer, uri: string, lines: number[] | undefined) {
  const level = LEVELS[r.state];
  const where = r.input.locations.map((l) => l.location).join('; ');
  // A failed read's meaning is the spec's sentence; the answer's may also explain "not checked"
  // results of the same kind, which this one is not.
  const definition =
    r.state === 'not_observed'
      ? STATE_DEFINITIONS.not_observed
      : (answer.state_definitions[r.kind]?.[r.state] ?? RULES[r.state].text);
  const place = placeInWords(r);
  const placed = place === '' ? '' : ` (${place}${r.resolved_version ? `, resolved ${versionInWords(r)}` : ''})`;
  const text =
    r.observation_date === null
      ? `${r.kind} ${r.input.name}${placed} is ${NOT_CHECKED}: Tended holds no observation of it on or before ${r.as_of}, so nothing was read and no state is asserted; never "gone".`
      : `${r.kind} ${r.input.name}${placed} is ${stateInWords(r.state, r.observation_date)}: ${definition}${r.successor ? `; successor: ${successorInWords(r.successor)}` : ''}. ` +
        `Observed ${r.observation_date} (${r.censoring_status}, answering for ${r.as_of}); source ${r.source}; log leaf ${r.leaf_index}.`;
  // An excepted result is suppressed outside the source (SARIF 2.1.0 §3.35: the policy file is not
  // the file the result is in), accepted, with the policy's reason; an expired exception suppresses nothing.
  const mark = exceptionOf(r);
  const policy = mark === undefined ? '' : ` ${exceptionInWords(mark)} (${mark.policy}).`;
  return {
    ruleId: r.state,
    ruleIndex: STATES.indexOf(r.state),
    ...(level === 'none' ? { kind: 'pass' } : {}),
    level,
    message: { text: text + policy },
    ...(mark?.status === 'excepted'
      ? {
          suppressions: [
            { kind: 'external', status: 'accepted', justification: `${exceptionInWords(mark)} (${mark.policy})` },
          ],
        }
      : {}),
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri },
          // Line 1 only when the parser keeps no lines for this format (the XML and TOML manifests); `line_known` says so.
          region: { startLine: lines?.[0] ?? 1 },
        },
        message: { text: where },
      },
    ],
    partialFingerprints: { 'tendedComponent/v1': `${r.kind}:${r.input.name}` },
    properties: {
      component: `${r.kind}:${r.input.name}`,
      purl: r.purl[1],
      state: r.state,
      observation_date: r.observation_date,
      censoring_status: r.censoring_status,
      source: r.source,
      leaf_index: r.leaf_index,
      as_of: r.as_of,
      line_known: lines !== undefined && lines.length > 0,
      lines: lines ?? [],
      ...(r.resolved_version !== undefined ? { resolved_version: r.resolved_version } : {}),
      ...(r.resolved_versions !== undefined ? { resolved_versions: r.resolved_versions } : {}),
      ...(r.scope !== undefined ? { scope: r.scope } : {}),
      ...(r.dev ? { dev: true } : {}),
      ...(r.optional ? { optional: true } : {}),
      ...(r.via !== undefined ? { via: r.via } : {}),
      ...(r.via_elided !== undefined ? { via_elided: r.via_elided } : {}),
      ...(r.via_unresolved !== undefined ? { via_unresolved: r.via_unresolved } : {}),
      ...(mark !== undefined ? { exception: mark } : {}),
    },
  };
}
