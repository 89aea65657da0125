import { parseAsOf, utcDateOf } from '../domain/calendar.js';
import { CENSUS_KINDS, type Census } from '../domain/census.js';
import { ValidationError } from '../domain/errors.js';
import { normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import type { Observation } from '../domain/observation.js';
import { seriesWithin, stateMutations, type Mutation } from '../domain/series.js';
import type { AdoptedComponent } from '../storage/store.js';
import type { RecordDeps } from './deps.js';
import { entityResult, entitySeries, type EntityResult, type EntitySeries } from './entity-answer.js';

/**
 * Why a package has no page: Tended never read its dependents, or the latest read counted fewer
 * than the threshold (or could not be read: a failed census is not zero and not a qualification).
 */
export type PackageRefusal =
  | { reason: 'not-watched'; ref: ComponentRef; minDependents: number }
  /** Observed (the record holds its readings) but its dependents never read: no census yet. */
  | { reason: 'no-census'; ref: ComponentRef; minDependents: number }
  | { reason: 'not-qualified'; ref: ComponentRef; minDependents: number; census: Census };

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
  rawAsOf: string | undefined,
): Promise<PackageVersion> {
  const today = utcDateOf(deps.clock.now());
  const asOf = parseAsOf(rawAsOf, today);
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
      return { reason: v.observationsVersion !== null ? 'no-census' : 'not-watched', ref: v.ref, minDependents };
    // A failed read (null) is not zero, and not a qualification either.
    if (census.dependents === null || census.dependents < minDependents)
      return { reason: 'not-qualified', ref: v.ref, minDependents, census };
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

/** The packages that have a page, with their latest census: every registry with a census, in its order. */
export async function adoptedPackages(deps: RecordDeps, minDependents: number): Promise<AdoptedComponent[]> {
  const byKind = await Promise.all([...CENSUS_KINDS].map((kind) => deps.store.adoptedComponents(kind, minDependents)));
  return byKind.flat();
}

export interface RecentChange {
  ref: ComponentRef;
  mutation: Mutation;
}

// Packages whose observations are held in memory at once while looking for recent changes.
const CHANGES_CHUNK = 400;

/**
 * The latest state changes across the packages with a page, newest first. Reads the packages'
 * series a chunk at a time and keeps only the best `limit`, so memory stays bounded however many
 * packages qualify; the time grows with the record, so callers cache the answer.
 */
export async function recentStateChanges(
  deps: RecordDeps,
  minDependents: number,
  limit: number,
): Promise<RecentChange[]> {
  const adopted = await adoptedPackages(deps, minDependents);
  let best: RecentChange[] = [];
  for (let i = 0; i < adopted.length; i += CHANGES_CHUNK) {
    const chunk = adopted.slice(i, i + CHANGES_CHUNK);
    const held = await deps.store.observationsOfMany(chunk.map((a) => a.component));
    for (const a of chunk) {
      for (const mutation of stateMutations(held.get(`${a.component.kind}:${a.component.id}`) ?? []))
        best.push({ ref: a.component, mutation });
    }
    best = best.sort(newestFirst).slice(0, limit);
  }
  return best;
}

function newestFirst(x: RecentChange, y: RecentChange): number {
  if (x.mutation.observed !== y.mutation.observed) return x.mutation.observed < y.mutation.observed ? 1 : -1;
  const a = `${x.ref.kind}:${x.ref.id}`;
  const b = `${y.ref.kind}:${y.ref.id}`;
  return a < b ? -1 : a > b ? 1 : 0;
}
