import type { DatedRead } from '../domain/as-of.js';
import type { ComponentRef } from '../domain/component.js';
import type { ParseResult, SbomSubject, UnresolvedEntry } from '../parsers/reference.js';
import {
  MAX_RESULTS_PER_ANSWER,
  MAX_UNRESOLVED_LISTED,
  submittedComponents,
  type MergedTreePlace,
  type SubmittedComponents,
} from './submitted-components.js';
import { queueSubmitted, type DiscoveryDeps, type DiscoveryReport } from './discovery.js';
import { NOT_CHECKED_DEFINITION, STATE_DEFINITIONS, stateDefinition } from '../domain/state.js';
import { DATA_LICENSE, checkedResult, type CheckedResult, type EntityResult } from './entity-answer.js';
import type { Verdict } from '../notary/verdict.js';
import type { VerdictService } from './verdict.js';

export interface ComponentCheck extends CheckedResult {
  /** What the submission named, and every place it named it. */
  input: {
    name: string;
    kind: ComponentRef['kind'];
    /** The first MAX_LOCATIONS_LISTED places the submission names it. */
    locations: { input: string; location: string }[];
    /** Present when it is named in more places than are listed: how many more. */
    locations_omitted?: number;
  };
  /** With TENDED_VERDICTS=on: the signed, offline-verifiable form of this result. */
  verdict?: Verdict;
  /** Lockfiles and SBOMs with a graph (DESIGN §8d): the version the file resolved. */
  resolved_version?: string;
  /** Present when the file resolved more than one version of the package: each of them. */
  resolved_versions?: string[];
  /** `direct` (the project names it) or `transitive`; absent when the file does not say. */
  scope?: 'direct' | 'transitive';
  dev?: true;
  optional?: true;
  /** One shortest path: names from a direct dependency down to this one's parent; [] for a direct one. */
  via?: string[];
  /** A path longer than `via` holds: how many names were left out between its first and last eight. */
  via_elided?: number;
  /** The path runs through this entry, which names no component Tended can observe. */
  via_unresolved?: string;
}

export interface CheckAnswer {
  as_of: string;
  format: string;
  variant?: string;
  /** SBOM answers only: what the SBOM describes (CycloneDX metadata.component, the SPDX described package), or null. */
  subject?: SbomSubject | null;
  /** How many results the answer holds (at most MAX_RESULTS_PER_ANSWER). */
  results_count: number;
  /** How many entries named no component Tended can look up; all are counted, at most MAX_UNRESOLVED_LISTED are listed. */
  unresolved_count: number;
  /** Present when the submission named more components than one answer holds: how many were left unchecked. */
  results_omitted?: number;
  /** Present when more entries were unresolved than one answer lists: how many are counted but not listed. */
  unresolved_omitted?: number;
  /** Present with unresolved_omitted: every unresolved entry counted by its reason (at most MAX_REASONS_COUNTED reasons). */
  unresolved_by_reason?: Record<string, number>;
  /** Present when the record holds no observation of some components: how many, whether they were queued, and how to ask. */
  discovery?: DiscoveryReport;
  /** One dated result per component: what the record held on as_of, never a guess. */
  results: ComponentCheck[];
  /** Every entry that named no component Tended can look up, with the reason. */
  unresolved: UnresolvedEntry[];
  /** The result states counted: facts about the submission, not a score. */
  states: Partial<Record<EntityResult['state'], number>>;
  /** The meaning of each state the results carry, by kind (a dormant repository and a dormant package age by different dates): once here, not once per result. */
  state_definitions: StateDefinitions;
  note: string;
  license: typeof DATA_LICENSE;
}

export type StateDefinitions = Partial<Record<ComponentRef['kind'], Partial<Record<EntityResult['state'], string>>>>;

const NOTE =
  'Each result is what the record held for that component on as_of. A component Tended holds no observation of is "not checked" (not_observed), never "gone". The submission was read in memory and not kept.';

/**
 * The meaning of `not_observed` in an answer whose results of one kind hold both a failed read
 * (it has an observation_date) and a component never read ("not checked", none).
 */
const NOT_OBSERVED_EITHER = `where the result has an observation_date, ${STATE_DEFINITIONS.not_observed}; where it has none, ${NOT_CHECKED_DEFINITION}`;

export interface CheckOptions {
  /** The submission asked to queue its unheld components (`?queue=true`, MCP `queue: true`). */
  queue?: boolean;
}

/**
 * A check ready to answer: everything that can fail (the date, the store read) is done; the
 * results are made a chunk at a time as they are written, so a 10,000-component SBOM never holds
 * 10,000 answer objects at once. The writer keeps (`keep`) the results that fit its byte budget and
 * says how many did not (`cut`); `results_count`, `states` and `state_definitions` count the kept
 * ones, so they are complete once the writer is done.
 */
export interface CheckPlan extends Omit<CheckAnswer, 'results' | 'states' | 'state_definitions' | 'results_count'> {
  /** The results in order, at most `size` to a chunk (chunks, not single results: one await per result costs more than making it). */
  results(size: number): AsyncGenerator<ComponentCheck[]>;
  /** The writer wrote these results. */
  keep(checks: readonly ComponentCheck[]): void;
  /** The writer's byte budget left `count` results unwritten: counted in results_omitted, said in the note. */
  cut(count: number): void;
  /** The results `results()` makes, before any are cut. */
  readonly planned: number;
  readonly results_count: number;
  readonly states: CheckAnswer['states'];
  readonly state_definitions: StateDefinitions;
}

/**
 * Answers a submission from the record: each component (merged with its locations where it was
 * parsed) resolved at as_of exactly as the entity read resolves it. Writes nothing to the record:
 * unheld components go on the watch list only when the submission asks (`options.queue`), and
 * even then a name reaches the record only once its upstream shows it public.
 */
export async function planCheck(
  deps: DiscoveryDeps,
  submitted: SubmittedComponents,
  { asOf, today }: DatedRead,
  verdicts?: VerdictService | null,
  options: CheckOptions = {},
): Promise<CheckPlan> {
  const components = submitted.components;
  const held = await deps.store.observationsOfMany(components.map((m) => m.ref));
  const unheld = components.flatMap((m) => (held.has(keyOf(m.ref)) ? [] : [m.ref]));
  const { listed, report } = await queueSubmitted(deps, unheld, options.queue ?? false);
  // The head is read before the first byte is written, so every verdict of one answer names one checkpoint.
  const head = verdicts && components.length > 0 ? await verdicts.head() : null;
  const unresolvedOmitted = submitted.unresolvedCount - submitted.unresolved.length;
  let resultsOmitted = submitted.omitted;
  let cutByBudget = 0;
  const plan: CheckPlan = {
    as_of: asOf ?? today,
    format: submitted.format,
    ...(submitted.variant ? { variant: submitted.variant } : {}),
    ...(submitted.subject !== undefined ? { subject: submitted.subject } : {}),
    planned: components.length,
    results_count: 0,
    unresolved_count: submitted.unresolvedCount,
    ...(report ? { discovery: report } : {}),
    async *results(size) {
      let chunk: ComponentCheck[] = [];
      for (const { ref, locations, count, tree } of components) {
        const key = keyOf(ref);
        const result = checkedResult(ref, held.get(key) ?? [], asOf, today);
        // The fresh result becomes the check in place: copying its fifteen fields into a new
        // object, ten thousand times for a big SBOM, costs more than making the result.
        const check = result as ComponentCheck;
        if (listed.has(key) && result.observation_date === null) {
          check.queued = true;
          check.source = `not checked yet; queued for observation: ${check.source.slice('not checked: '.length)}`;
        }
        check.input = {
          name: ref.id,
          kind: ref.kind,
          locations,
          ...(count > locations.length ? { locations_omitted: count - locations.length } : {}),
        };
        if (tree) placeInAnswer(check, tree);
        if (verdicts && head) check.verdict = await verdicts.sign(ref, result, head);
        chunk.push(check);
        if (chunk.length === size) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    },
    keep(checks) {
      (plan as { results_count: number }).results_count += checks.length;
      for (const check of checks) {
        plan.states[check.state] = (plan.states[check.state] ?? 0) + 1;
        const meanings = (plan.state_definitions[check.input.kind] ??= {});
        const known = meanings[check.state];
        if (known === undefined)
          meanings[check.state] = stateDefinition(check.state, check.input.kind, check.observation_date);
        else if (check.state === 'not_observed' && known !== NOT_OBSERVED_EITHER) {
          // A failed read and a component never read share the state; one sentence must not claim a check for both.
          if (stateDefinition(check.state, check.input.kind, check.observation_date) !== known)
            meanings.not_observed = NOT_OBSERVED_EITHER;
        }
      }
    },
    cut(count) {
      if (count <= 0) return;
      cutByBudget += count;
      resultsOmitted += count;
      plan.results_omitted = resultsOmitted;
      plan.note = `${NOTE} ${truncationNote(submitted.omitted, cutByBudget, unresolvedOmitted)}`;
    },
    ...(resultsOmitted > 0 ? { results_omitted: resultsOmitted } : {}),
    unresolved: submitted.unresolved,
    ...(unresolvedOmitted > 0
      ? { unresolved_omitted: unresolvedOmitted, unresolved_by_reason: submitted.unresolvedByReason ?? {} }
      : {}),
    states: {},
    state_definitions: {},
    note:
      resultsOmitted > 0 || unresolvedOmitted > 0
        ? `${NOTE} ${truncationNote(resultsOmitted, 0, unresolvedOmitted)}`
        : NOTE,
    license: DATA_LICENSE,
  };
  return plan;
}

const keyOf = (ref: ComponentRef) => `${ref.kind}:${ref.id}`;

/** The tree's fields under the names DESIGN §8d fixes. */
function placeInAnswer(check: ComponentCheck, tree: MergedTreePlace): void {
  if (tree.resolvedVersion !== undefined) check.resolved_version = tree.resolvedVersion;
  if (tree.resolvedVersions) check.resolved_versions = tree.resolvedVersions;
  if (tree.scope) check.scope = tree.scope;
  if (tree.dev) check.dev = true;
  if (tree.optional) check.optional = true;
  if (tree.via) check.via = tree.via;
  if (tree.viaElided !== undefined) check.via_elided = tree.viaElided;
  if (tree.viaUnresolved !== undefined) check.via_unresolved = tree.viaUnresolved;
}

function truncationNote(beyondCount: number, beyondBytes: number, unresolved: number): string {
  const parts: string[] = [];
  if (beyondCount > 0)
    parts.push(
      `The submission named more than ${MAX_RESULTS_PER_ANSWER.toLocaleString('en')} components; one answer checks the first ${MAX_RESULTS_PER_ANSWER.toLocaleString('en')}, and ${beyondCount.toLocaleString('en')} more entries were not checked (results_omitted): send the rest in another request.`,
    );
  if (beyondBytes > 0)
    parts.push(
      `The answer reached its size bound (ten times the submission plus 1 MB), so the last ${beyondBytes.toLocaleString('en')} results were not written (counted in results_omitted): send them in another request.`,
    );
  if (unresolved > 0)
    parts.push(
      `The first ${MAX_UNRESOLVED_LISTED.toLocaleString('en')} unresolved entries are listed; ${unresolved.toLocaleString('en')} more are counted by reason in unresolved_by_reason.`,
    );
  return parts.join(' ');
}

/** The fields of an answer that come before its results, in the order they are written. */
export function checkAnswerHead(
  plan: CheckPlan,
): Pick<CheckAnswer, 'as_of' | 'format' | 'variant' | 'subject' | 'unresolved_count' | 'discovery'> {
  return {
    as_of: plan.as_of,
    format: plan.format,
    ...(plan.variant ? { variant: plan.variant } : {}),
    ...(plan.subject !== undefined ? { subject: plan.subject } : {}),
    unresolved_count: plan.unresolved_count,
    ...(plan.discovery ? { discovery: plan.discovery } : {}),
  };
}

/**
 * The fields of an answer that come after its results: the counts (a writer cut by its byte
 * budget knows how many it wrote only at the end; JSON objects are unordered, so readers see the
 * same answer), states and definitions.
 */
export function checkAnswerTail(
  plan: CheckPlan,
): Omit<CheckAnswer, 'results' | keyof ReturnType<typeof checkAnswerHead>> {
  return {
    results_count: plan.results_count,
    ...(plan.results_omitted !== undefined ? { results_omitted: plan.results_omitted } : {}),
    unresolved: plan.unresolved,
    ...(plan.unresolved_omitted !== undefined
      ? { unresolved_omitted: plan.unresolved_omitted, unresolved_by_reason: plan.unresolved_by_reason }
      : {}),
    states: plan.states,
    state_definitions: plan.state_definitions,
    note: plan.note,
    license: plan.license,
  };
}

/** The whole answer as one object, unbounded in bytes, for callers that need it all at once (the CLI table, one component). */
export async function checkComponents(
  deps: DiscoveryDeps,
  parsed: ParseResult | SubmittedComponents,
  dated: DatedRead,
  verdicts?: VerdictService | null,
  options: CheckOptions = {},
): Promise<CheckAnswer> {
  const submitted = 'references' in parsed ? submittedComponents(parsed) : parsed;
  const plan = await planCheck(deps, submitted, dated, verdicts, options);
  const results: ComponentCheck[] = [];
  for await (const chunk of plan.results(1024)) {
    plan.keep(chunk);
    results.push(...chunk);
  }
  return { ...checkAnswerHead(plan), results, ...checkAnswerTail(plan) };
}
