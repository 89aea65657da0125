import type { DatedRead } from '../domain/as-of.js';
import { CENSUS_KINDS, type Census } from '../domain/census.js';
import { ValidationError } from '../domain/errors.js';
import { normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import type { Observation } from '../domain/observation.js';
import { seriesWithin } from '../domain/series.js';
import type { RecordDeps } from './deps.js';
import { entityResult, entitySeries, type EntityResult, type EntitySeries } from './entity-answer.js';

/**
 * Why a package has no page: Tended never read its dependents, or the latest read counted fewer
 * than the threshold (or could not be read: a failed census is not zero and not a qualification).
 * `held` is what the record holds of it as of the date asked, when it was observed: a component
 * with no page is still held, and its answer says so (pages/held-answer.tsx).
 */
export type PackageRefusal =
  | { reason: 'not-watched'; ref: ComponentRef; minDependents: number }
  /** Observed (the record holds its readings) but its dependents never read: no census yet. */
  | { reason: 'no-census'; ref: ComponentRef; minDependents: number; held: EntityResult }
  | { reason: 'not-qualified'; ref: ComponentRef; minDependents: number; census: Census; held: EntityResult | null };

export interface PackageRecord {
  ref: ComponentRef;
  result: EntityResult;
  series: EntitySeries;
  /** The read view up to as_of, with each date's evidence: the page's series table. */
  observations: Observation[];
  /** Null for a kind with no dependents count (CENSUS_KINDS), whose page needs none. */
  census: Census | null;
}

/** The versions a rendered page depends on: its observations' latest leaf and its census leaf. */
export interface PackageVersion {
  ref: ComponentRef;
  asOf: string | null;
  today: string;
  observationsVersion: number | null;
  censusVersion: number | null;
}

/**
 * Validates a package name of a registry with pages and as_of, and reads the versions a page for
 * it rests on: two lookups the SQLite store answers from memory, so a cached page costs no query.
 */
export async function packageVersion(
  deps: RecordDeps,
  kind: ComponentKind,
  name: string,
  { asOf, today }: DatedRead,
): Promise<PackageVersion> {
  const ref = packageRef(kind, name);
  const [observationsVersion, censusVersion] = await Promise.all([
    deps.store.componentVersion(ref),
    deps.store.censusVersion(ref),
  ]);
  return { ref, asOf, today, observationsVersion, censusVersion };
}

/** The page's package, an invalid name reported against the path parameter that holds it (`/npm/{name}`). */
function packageRef(kind: ComponentKind, name: string): ComponentRef {
  try {
    return normaliseComponent(kind, name);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(error.issues.map((i) => ({ ...i, loc: ['path', 'name'] })));
  }
}

/**
 * The page's record for a component: a package whose latest census qualifies it, or an observed
 * component of a kind with no census; otherwise why there is no page.
 */
export async function readPackage(
  deps: RecordDeps,
  v: PackageVersion,
  minDependents: number,
): Promise<PackageRecord | PackageRefusal> {
  let census: Census | null = null;
  if (!CENSUS_KINDS.has(v.ref.kind)) {
    // No adoption signal exists for this kind: an observed component has a page (pages/registries.ts).
    if (v.observationsVersion === null) return { reason: 'not-watched', ref: v.ref, minDependents };
  } else {
    census = await deps.store.latestCensus(v.ref);
    if (census === null)
      return v.observationsVersion === null
        ? { reason: 'not-watched', ref: v.ref, minDependents }
        : { reason: 'no-census', ref: v.ref, minDependents, held: await heldResult(deps, v) };
    // A failed read (null) is not zero, and not a qualification either.
    if (census.dependents === null || census.dependents < minDependents)
      return {
        reason: 'not-qualified',
        ref: v.ref,
        minDependents,
        census,
        held: v.observationsVersion === null ? null : await heldResult(deps, v),
      };
  }
  const all = await deps.store.observationsOf(v.ref);
  const result = entityResult(v.ref, all, v.asOf, v.today);
  return {
    ref: v.ref,
    result,
    series: entitySeries(all, result.as_of),
    observations: seriesWithin(all, result.as_of),
    census,
  };
}

/** The entity answer of an observed component with no page, as of the date asked. */
async function heldResult(deps: RecordDeps, v: PackageVersion): Promise<EntityResult> {
  return entityResult(v.ref, await deps.store.observationsOf(v.ref), v.asOf, v.today);
}
