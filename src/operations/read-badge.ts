import { parseAsOf, utcDateOf } from '../domain/calendar.js';
import { resolveAsOf } from '../domain/as-of.js';
import type { ComponentRef } from '../domain/component.js';
import type { State } from '../domain/state.js';
import { queueNamed, type DiscoveryDeps } from './discovery.js';
import { factTarget } from './facts.js';

/**
 * What a badge says (issue 18): the state and the real date of the observation it rests on, or
 * "not checked". Never a score. The kind and id are read as the /v1 routes read them, so a badge
 * names exactly the component `/v1/trust_score/{kind}/{id}` answers for.
 */
export interface BadgeReading {
  ref: ComponentRef;
  /** The date answered for: as_of, or today. */
  as_of: string;
  /** True when the reader asked for a date before today: that answer no longer moves with the calendar. */
  past: boolean;
  /** null when the record holds no observation on or before as_of: "not checked", never "gone". */
  state: State | null;
  observation_date: string | null;
  leaf_index: number | null;
  /** Names the data the reading was computed from: the same key gives the same reading. */
  version: string;
}

/**
 * Reads one component's badge. Throws ValidationError (kind, id or as_of at fault, as the /v1 and
 * entity routes report them). A read naming a component the record does not hold queues it, as an
 * entity read does (DESIGN §3 "Discovery").
 */
export async function readBadge(
  deps: DiscoveryDeps,
  kind: string | undefined,
  id: string | undefined,
  rawAsOf: string | undefined,
): Promise<BadgeReading> {
  const ref = factTarget(kind, id);
  const today = utcDateOf(deps.clock.now());
  const asOf = parseAsOf(rawAsOf, today);
  const held = await deps.store.componentVersion(ref);
  if (held === null) await queueNamed(deps, ref);
  const date = asOf ?? today;
  const version = `${ref.kind}:${ref.id}|${date}|${held ?? 'none'}`;
  const base = { ref, as_of: date, past: date < today, version };
  if (held === null) return { ...base, state: null, observation_date: null, leaf_index: null };
  const r = resolveAsOf(await deps.store.observationsOf(ref), asOf, today);
  if (r.observation === null) return { ...base, state: null, observation_date: null, leaf_index: null };
  return { ...base, state: r.state, observation_date: r.observation_date, leaf_index: r.observation.leaf_index };
}
