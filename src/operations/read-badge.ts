import { resolveAsOf, type DatedRead } from '../domain/as-of.js';
import type { ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import type { State } from '../domain/state.js';
import { queueNamed, type DiscoveryDeps } from './discovery.js';
import { factTarget } from './facts.js';

/**
 * What a badge names (issue 18): one component at one date, and the version of the record it is
 * answered from. The kind and id are read as the /v1 routes read them, so a badge names exactly
 * the component `/v1/trust_score/{kind}/{id}` answers for; as_of as the entity reads take it.
 */
export interface BadgeTarget {
  ref: ComponentRef;
  /** The as_of asked for, or null for today. */
  asOf: string | null;
  today: string;
  /** True when the date answered for is before today: that answer no longer moves with the calendar. */
  past: boolean;
  /** The component's latest leaf, or null when the record holds no observation of it. */
  held: number | null;
  /** Names the data the badge is computed from: the same key gives the same badge (the cache key). */
  version: string;
}

/** What a badge says: the state and the real date of the observation it rests on, or "not checked" (null). */
export interface BadgeReading {
  as_of: string;
  past: boolean;
  state: State | null;
  observation_date: string | null;
}

/**
 * How far the record holds the component a badge names (its ref read by `factTarget`, its date by
 * `datedRead`, in that order: a bad kind or id is reported before a bad date): one indexed lookup,
 * so a cached badge costs no series read. A read naming a component the record does not hold
 * queues it, as an entity read does (DESIGN §3 "Discovery").
 */
export async function badgeTarget(deps: DiscoveryDeps, ref: ComponentRef, dated: DatedRead): Promise<BadgeTarget> {
  const held = await deps.store.componentVersion(ref);
  if (held === null) await queueNamed(deps, ref);
  return targetOf(ref, dated, held);
}

/**
 * The target of a badge the record already holds, or undefined: a request to explain (a bad kind
 * or id) or a component not held, whose read queues discovery. Those are the full read's
 * (badgeTarget); this one never writes, so the hot path may make it before the framework.
 */
export async function heldBadgeTarget(
  deps: DiscoveryDeps,
  kind: string,
  id: string,
  dated: DatedRead,
): Promise<BadgeTarget | undefined> {
  let ref;
  try {
    ref = factTarget(kind, id);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
  const held = await deps.store.componentVersion(ref);
  return held === null ? undefined : targetOf(ref, dated, held);
}

function targetOf(ref: ComponentRef, { asOf, today }: DatedRead, held: number | null): BadgeTarget {
  const date = asOf ?? today;
  return { ref, asOf, today, past: date < today, held, version: `${ref.kind}:${ref.id}|${date}|${held ?? 'none'}` };
}

/** Resolves the badge's answer from the record, exactly as the entity read resolves it. */
export async function readBadge(deps: DiscoveryDeps, target: BadgeTarget): Promise<BadgeReading> {
  const as_of = target.asOf ?? target.today;
  const none = { as_of, past: target.past, state: null, observation_date: null };
  if (target.held === null) return none;
  // The series is all a badge reads (state and date, never the evidence): one indexed query.
  const { series } = await deps.store.seriesAt(target.ref, as_of);
  const r = resolveAsOf(series, target.asOf, target.today);
  return r.observation === null ? none : { ...none, state: r.state, observation_date: r.observation_date };
}
