import { parseAsOf, utcDateOf } from '../domain/calendar.js';
import type { ComponentRef } from '../domain/component.js';
import type { ComponentReference, ParseResult, SbomSubject, UnresolvedEntry } from '../parsers/reference.js';
import { queueSubmitted, type DiscoveryDeps, type DiscoveryReport } from './discovery.js';
import { stateDefinition } from '../domain/state.js';
import { DATA_LICENSE, checkedResult, type CheckedResult, type EntityResult } from './entity-answer.js';
import type { Verdict } from '../notary/verdict.js';
import type { VerdictService } from './verdict.js';

export interface ComponentCheck extends CheckedResult {
  /** What the submission named, and every place it named it. */
  input: { name: string; kind: ComponentRef['kind']; locations: { input: string; location: string }[] };
  /** With TENDED_VERDICTS=on: the signed, offline-verifiable form of this result. */
  verdict?: Verdict;
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

/**
 * An answer is bounded whatever the input (issue 14): a 4 MB SBOM of `[0,0,…]` is two million
 * unresolved entries, and listed whole it answered 230 MB. Real SBOMs stay far below these.
 */
export const MAX_RESULTS_PER_ANSWER = 10_000;
export const MAX_UNRESOLVED_LISTED = 1_000;
const MAX_REASONS_COUNTED = 100;
/** Inputs, locations and reasons quoted back are cut to this many characters (the middle elided). */
const MAX_QUOTED_CHARS = 200;

/** `text` cut to MAX_QUOTED_CHARS with its middle elided: both ends say the most about where it was. */
export function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_CHARS) return text;
  const half = (MAX_QUOTED_CHARS - 1) / 2;
  return `${text.slice(0, Math.ceil(half))}…${text.slice(text.length - Math.floor(half))}`;
}

function boundedUnresolved(
  parsed: ParseResult,
): Pick<CheckAnswer, 'unresolved' | 'unresolved_omitted' | 'unresolved_by_reason'> {
  const all = parsed.unresolved;
  const unresolved = all.slice(0, MAX_UNRESOLVED_LISTED).map((u) => ({
    input: quoted(u.input),
    location: quoted(u.location),
    reason: quoted(u.reason),
  }));
  const omitted = all.length - unresolved.length + (parsed.unlisted?.count ?? 0);
  if (omitted === 0) return { unresolved };
  const byReason: Record<string, number> = {};
  let reasons = 0;
  const count = (reason: string, n: number) => {
    const key = quoted(reason);
    if (byReason[key] === undefined) {
      if (reasons === MAX_REASONS_COUNTED) return;
      reasons += 1;
      byReason[key] = 0;
    }
    byReason[key] += n;
  };
  for (const u of all) count(u.reason, 1);
  for (const [reason, n] of parsed.unlisted?.byReason ?? []) count(reason, n);
  return { unresolved, unresolved_omitted: omitted, unresolved_by_reason: byReason };
}

const NOTE =
  'Each result is what the record held for that component on as_of. A component Tended holds no observation of is "not checked" (not_observed), never "gone". The submission was read in memory and not kept.';

export interface CheckOptions {
  /** The submission asked to queue its unheld components (`?queue=true`, MCP `queue: true`). */
  queue?: boolean;
}

/**
 * A check ready to answer: everything that can fail (the date, the store read) is done; the
 * results are made a chunk at a time as they are written, so a 10,000-component SBOM never holds
 * 10,000 answer objects at once. `states` and `state_definitions` are complete once `results()`
 * has run to its end.
 */
export interface CheckPlan extends Omit<CheckAnswer, 'results' | 'states' | 'state_definitions'> {
  /** The results in order, at most `size` to a chunk (chunks, not single results: one await per result costs more than making it). */
  results(size: number): AsyncGenerator<ComponentCheck[]>;
  readonly states: CheckAnswer['states'];
  readonly state_definitions: StateDefinitions;
}

/**
 * Answers a parsed manifest or SBOM from the record: duplicates merged with all their locations,
 * each component resolved at as_of exactly as the entity read resolves it. Writes nothing to the
 * record: unheld components go on the watch list only when the submission asks (`options.queue`),
 * and even then a name reaches the record only once its upstream shows it public.
 */
export async function planCheck(
  deps: DiscoveryDeps,
  parsed: ParseResult,
  rawAsOf: string | undefined,
  verdicts?: VerdictService | null,
  options: CheckOptions = {},
): Promise<CheckPlan> {
  const today = utcDateOf(deps.clock.now());
  const asOf = parseAsOf(rawAsOf, today);
  const merged = new Map<string, { ref: ComponentRef; found: ComponentReference[] }>();
  let omitted = 0;
  for (const reference of parsed.references) {
    const key = `${reference.ref.kind}:${reference.ref.id}`;
    const entry = merged.get(key);
    if (entry) entry.found.push(reference);
    else if (merged.size < MAX_RESULTS_PER_ANSWER) merged.set(key, { ref: reference.ref, found: [reference] });
    else omitted += 1; // counts references past the cap (a repeat among them counts again: a bound, not a census)
  }
  const unresolved = boundedUnresolved(parsed);
  const held = await deps.store.observationsOfMany([...merged.values()].map((m) => m.ref));
  const unheld = [...merged].flatMap(([key, m]) => (held.has(key) ? [] : [m.ref]));
  const { listed, report } = await queueSubmitted(deps, unheld, options.queue ?? false);
  const states: CheckAnswer['states'] = {};
  const definitions: StateDefinitions = {};
  // The head is read before the first byte is written, so every verdict of one answer names one checkpoint.
  const head = verdicts && merged.size > 0 ? await verdicts.head() : null;
  return {
    as_of: asOf ?? today,
    format: parsed.format,
    ...(parsed.variant ? { variant: parsed.variant } : {}),
    ...(parsed.subject !== undefined ? { subject: parsed.subject } : {}),
    results_count: merged.size,
    unresolved_count: parsed.unresolved.length + (parsed.unlisted?.count ?? 0),
    ...(omitted > 0 ? { results_omitted: omitted } : {}),
    ...(report ? { discovery: report } : {}),
    async *results(size) {
      let chunk: ComponentCheck[] = [];
      for (const [key, { ref, found }] of merged) {
        const result = checkedResult(ref, held.get(key) ?? [], asOf, today);
        states[result.state] = (states[result.state] ?? 0) + 1;
        const meanings = (definitions[ref.kind] ??= {});
        meanings[result.state] ??= stateDefinition(result.state, ref.kind);
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
          locations: found.map((f) => ({ input: quoted(f.input), location: quoted(f.location) })),
        };
        if (verdicts && head) check.verdict = await verdicts.sign(ref, result, head);
        chunk.push(check);
        if (chunk.length === size) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    },
    ...unresolved,
    states,
    state_definitions: definitions,
    note:
      omitted > 0 || unresolved.unresolved_omitted
        ? `${NOTE} ${truncationNote(omitted, unresolved.unresolved_omitted ?? 0)}`
        : NOTE,
    license: DATA_LICENSE,
  };
}

function truncationNote(results: number, unresolved: number): string {
  const parts: string[] = [];
  if (results > 0)
    parts.push(
      `The submission named more than ${MAX_RESULTS_PER_ANSWER.toLocaleString('en')} components; one answer checks the first ${MAX_RESULTS_PER_ANSWER.toLocaleString('en')}, and ${results.toLocaleString('en')} more entries were not checked (results_omitted): send the rest in another request.`,
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
): Pick<
  CheckAnswer,
  'as_of' | 'format' | 'variant' | 'subject' | 'results_count' | 'unresolved_count' | 'results_omitted' | 'discovery'
> {
  return {
    as_of: plan.as_of,
    format: plan.format,
    ...(plan.variant ? { variant: plan.variant } : {}),
    ...(plan.subject !== undefined ? { subject: plan.subject } : {}),
    results_count: plan.results_count,
    unresolved_count: plan.unresolved_count,
    ...(plan.results_omitted !== undefined ? { results_omitted: plan.results_omitted } : {}),
    ...(plan.discovery ? { discovery: plan.discovery } : {}),
  };
}

/** The whole answer as one object, for callers that need it all at once (the CLI table). */
export async function checkComponents(
  deps: DiscoveryDeps,
  parsed: ParseResult,
  rawAsOf: string | undefined,
  verdicts?: VerdictService | null,
  options: CheckOptions = {},
): Promise<CheckAnswer> {
  const plan = await planCheck(deps, parsed, rawAsOf, verdicts, options);
  const results: ComponentCheck[] = [];
  for await (const chunk of plan.results(1024)) results.push(...chunk);
  return {
    ...checkAnswerHead(plan),
    results,
    ...checkAnswerTail(plan),
  };
}

/** The fields of an answer that come after its results (states and definitions need every result made first). */
export function checkAnswerTail(
  plan: CheckPlan,
): Omit<CheckAnswer, 'results' | keyof ReturnType<typeof checkAnswerHead>> {
  return {
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
