import { parseAsOf, utcDateOf } from '../domain/calendar.js';
import type { ComponentRef } from '../domain/component.js';
import type { ComponentReference, ParseResult, UnresolvedEntry } from '../parsers/reference.js';
import type { RecordDeps } from './deps.js';
import { DATA_LICENSE, entityResult, type EntityResult } from './entity-answer.js';
import type { Verdict } from '../notary/verdict.js';
import type { VerdictService } from './verdict.js';

export interface ComponentCheck extends EntityResult {
  /** What the submission named, and every place it named it. */
  input: { name: string; kind: ComponentRef['kind']; locations: { input: string; location: string }[] };
  /** With TENDED_VERDICTS=on: the signed, offline-verifiable form of this result. */
  verdict?: Verdict;
}

export interface CheckAnswer {
  as_of: string;
  format: string;
  variant?: string;
  results_count: number;
  unresolved_count: number;
  /** One dated result per component: what the record held on as_of, never a guess. */
  results: ComponentCheck[];
  /** Every entry that named no component Tended can look up, with the reason. */
  unresolved: UnresolvedEntry[];
  /** The result states counted: facts about the submission, not a score. */
  states: Partial<Record<EntityResult['state'], number>>;
  note: string;
  license: typeof DATA_LICENSE;
}

/**
 * Answers a parsed manifest or SBOM from the record: duplicates merged with all their locations,
 * each component resolved at as_of exactly as the entity read resolves it. Reads only: a
 * submission neither watches nor records anything, so a private name never reaches the record.
 */
export async function checkComponents(deps: RecordDeps, parsed: ParseResult, rawAsOf: string | undefined, verdicts?: VerdictService | null): Promise<CheckAnswer> {
  const today = utcDateOf(deps.clock.now());
  const asOf = parseAsOf(rawAsOf, today);
  const merged = new Map<string, { ref: ComponentRef; found: ComponentReference[] }>();
  for (const reference of parsed.references) {
    const key = `${reference.ref.kind}:${reference.ref.id}`;
    const entry = merged.get(key) ?? { ref: reference.ref, found: [] };
    entry.found.push(reference);
    merged.set(key, entry);
  }
  const held = await deps.store.observationsOfMany([...merged.values()].map((m) => m.ref));
  const states: CheckAnswer['states'] = {};
  const results = [...merged.entries()].map(([key, { ref, found }]): ComponentCheck => {
    const result = entityResult(ref, held.get(key) ?? [], asOf, today);
    states[result.state] = (states[result.state] ?? 0) + 1;
    return {
      ...result,
      input: { name: ref.id, kind: ref.kind, locations: found.map((f) => ({ input: f.input, location: f.location })) },
    };
  });
  if (verdicts && results.length > 0) {
    const head = await verdicts.head();
    for (const [i, { ref }] of [...merged.values()].entries()) results[i]!.verdict = await verdicts.sign(ref, results[i]!, head);
  }
  return {
    as_of: asOf ?? today,
    format: parsed.format,
    ...(parsed.variant ? { variant: parsed.variant } : {}),
    results_count: results.length,
    unresolved_count: parsed.unresolved.length,
    results,
    unresolved: parsed.unresolved,
    states,
    note:
      'Each result is what the record held for that component on as_of. A component Tended holds no observation of is "not checked" (not_observed), never "gone". The submission was read in memory and not kept.',
    license: DATA_LICENSE,
  };
}
