import { resolveAsOf, type CensoringStatus, type Resolution } from '../domain/as-of.js';
import { componentPurls, type ComponentRef } from '../domain/component.js';
import type { Observation, SeriesEntry } from '../domain/observation.js';
import { seriesRows, seriesWithin, stateMutations, type Mutation, type SeriesRow } from '../domain/series.js';
import { successorOf } from '../domain/successor.js';
import { FAILED_READ, stateDefinition, type State, type UnreachableReason } from '../domain/state.js';

export const DATA_LICENSE = 'CC-BY-4.0' as const;

/** The answer for one component at one date: the spec §2.1 fields plus the evidence they rest on. */
export interface EntityResult {
  purl: [string, string];
  kind: ComponentRef['kind'];
  as_of: string;
  state: State;
  state_definition: string;
  observation_date: string | null;
  source: string;
  censoring_status: CensoringStatus;
  observed_at: string | null;
  evidence: Observation['evidence'] | null;
  method: string | null;
  leaf_index: number | null;
  /** The latest asserted state on or before the date, when the answer itself asserts none. */
  last_asserted: Resolution['last_asserted'];
  /** A sentence for what the answer does not say, when there is something it cannot say. */
  note?: string;
  /** Present when the record holds no observation of the component and it is queued for observation (discovery). */
  queued?: boolean;
  /**
   * DESIGN §8e: the replacement the registry's or advisory's own declaration names (npm's deprecation
   * message, NuGet's alternatePackage, Packagist's abandoned, Maven's relocation, PEP 792's reason, an
   * advisory), read from the evidence; absent when the declaration names no package, never guessed.
   */
  successor?: { kind: ComponentRef['kind']; name: string };
}

export interface EntitySeries {
  series: SeriesRow[];
  observations_count: number;
  first_observed: string | null;
  last_observed: string | null;
  state_changes: number;
  mutations: Mutation[];
}

/**
 * One component's result inside a manifest or SBOM answer: the entity result without the two
 * sentences that would repeat thousands of times in a big answer. `state_definition` is given once
 * per kind and state in the answer's `state_definitions`; the note of a component never observed
 * is left out because its `source` already says it ("not checked: Tended holds no observation of
 * …") and so does the answer's note. A note that says something about this result (a stale or a
 * failed reading) stays.
 */
export type CheckedResult = Omit<EntityResult, 'state_definition'>;

/** Resolves one component's observations at a date into its answer. Pure: no store, no clock. */
export function entityResult(
  ref: ComponentRef,
  observations: Observation[],
  asOf: string | null,
  today: string,
): EntityResult {
  return resolvedResult(ref, resolveAsOf(observations, asOf, today));
}

/** The answer for a resolution already made (from the series, with its one whole observation read after). */
export function resolvedResult(ref: ComponentRef, r: Resolution): EntityResult {
  // The definition right after the state it explains, for a person reading the answer.
  const { purl, kind, as_of, state, ...rest } = recordedFields(ref, r);
  const state_definition = stateDefinition(state, ref.kind, r.observation_date);
  return { purl, kind, as_of, state, state_definition, ...rest, ...noteFor(r, ref) };
}

/** The same resolution as entityResult, in the form a manifest or SBOM answer carries it. */
export function checkedResult(
  ref: ComponentRef,
  observations: Observation[],
  asOf: string | null,
  today: string,
): CheckedResult {
  const r = resolveAsOf(observations, asOf, today);
  const result: CheckedResult = recordedFields(ref, r);
  if (r.observation !== null) {
    const { note } = noteFor(r, ref);
    if (note !== undefined) result.note = note;
  }
  return result;
}

/** What the record says for the component at the date, without the sentences that explain it. */
function recordedFields(ref: ComponentRef, r: Resolution): CheckedResult {
  const o = r.observation;
  const successor = successorOf(ref, o?.evidence ?? null);
  return {
    purl: componentPurls(ref),
    kind: ref.kind,
    as_of: r.as_of,
    state: r.state,
    observation_date: r.observation_date,
    source: o ? o.source : `not checked: Tended holds no observation of ${ref.kind}:${ref.id} on or before ${r.as_of}`,
    censoring_status: r.censoring_status,
    observed_at: o?.observed_at ?? null,
    evidence: o?.evidence ?? null,
    method: o?.method ?? null,
    leaf_index: o?.leaf_index ?? null,
    last_asserted: r.last_asserted,
    ...(successor ? { successor } : {}),
  };
}

/** The dated series up to the answer's date: nothing after as_of ever leaks into it. */
export function entitySeries(observations: SeriesEntry[], asOf: string): EntitySeries {
  const within = seriesWithin(observations, asOf);
  const series = seriesRows(within);
  const mutations = stateMutations(within);
  return {
    series,
    observations_count: series.length,
    first_observed: series[0]?.observation_date ?? null,
    last_observed: series.at(-1)?.observation_date ?? null,
    state_changes: mutations.length,
    mutations,
  };
}

function noteFor(r: Resolution, ref: ComponentRef): { note?: string } {
  if (r.observation === null) {
    return { note: `No observation of ${ref.id} on or before ${r.as_of}: this is "not checked", never "gone".` };
  }
  if (r.stale) {
    return {
      note: `The latest observation (${r.observation_date}) is more than 180 days before ${r.as_of} and was not re-verified; no state is asserted.`,
    };
  }
  if (r.state === 'not_observed') {
    // Say what this read met, from its evidence: "a rate limit, time-out or network" is false of a
    // registry that answered it does not list the name.
    const reason = r.observation.evidence['unreachable'];
    const met = typeof reason === 'string' && reason in FAILED_READ ? FAILED_READ[reason as UnreachableReason] : null;
    return {
      note: `The check of ${r.observation_date} could not read the upstream${met ? `: ${met}` : ''}. No state is asserted; it is not a death.`,
    };
  }
  return {};
}
