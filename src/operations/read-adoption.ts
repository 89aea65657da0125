import { CENSUS_KINDS } from '../domain/census.js';
import { COMPONENT_KINDS, type ComponentRef } from '../domain/component.js';
import { stateMutations, type Mutation } from '../domain/series.js';
import type { AdoptedPage, HeldPage } from '../storage/store.js';

export type { AdoptedPage, HeldPage };
import type { RecordDeps } from './deps.js';

/**
 * The packages with a page, read the way a record of millions allows: in key order a bounded page
 * at a time, counted, and their latest state changes found from the end of the log, never by
 * reading every package's series.
 */

/** The packages with a page strictly after `after` in (kind, id) byte order, at most `limit`. */
export function adoptedAfter(
  deps: RecordDeps,
  after: ComponentRef | null,
  minDependents: number,
  limit: number,
): Promise<AdoptedPage[]> {
  return deps.store.adoptedPage(after, minDependents, limit);
}

/** The kinds with no census: every component of theirs the record holds has a page (read-package.ts). */
const HELD_PAGE_KINDS = COMPONENT_KINDS.filter((k) => !CENSUS_KINDS.has(k));

/** The held components of those kinds strictly after `after` in (kind, id) byte order, at most `limit`. */
export function heldPagesAfter(deps: RecordDeps, after: ComponentRef | null, limit: number): Promise<HeldPage[]> {
  return deps.store.heldPage(HELD_PAGE_KINDS, after, limit);
}

export function adoptedCount(deps: RecordDeps, minDependents: number): Promise<number> {
  return deps.store.adoptedCount(minDependents);
}

export interface RecentChange {
  ref: ComponentRef;
  mutation: Mutation;
}

/** Leaves of the log read back per step, and at most how many: the bound on one home page's work. */
const WINDOW = 4_096;
const MAX_WINDOWS = 16;
/** Packages whose series are read for their changes. */
const MAX_CANDIDATES = 400;

/**
 * The latest state changes among the packages with a page, newest first. The change feed, read
 * back from the log's end a window at a time, names the packages that changed lately; only their
 * series are read, so the work is bounded whatever the number of packages. A change older than
 * the windows read (MAX_WINDOWS × WINDOW leaves back) is not listed.
 */
export async function recentStateChanges(
  deps: RecordDeps,
  minDependents: number,
  limit: number,
): Promise<RecentChange[]> {
  const size = await deps.store.treeSize();
  const candidates = new Map<string, ComponentRef>();
  const qualifies = new Map<string, boolean>();
  let changes = 0;
  for (let until = size, step = 0; until > 0 && step < MAX_WINDOWS && changes < limit; until -= WINDOW, step++) {
    const from = Math.max(0, until - WINDOW);
    const found = await deps.store.stateChanges({ fromLeaf: from, untilLeaf: until, since: null, limit: WINDOW });
    for (const change of found.reverse()) {
      const ref = change.component;
      const key = `${ref.kind}:${ref.id}`;
      if (!CENSUS_KINDS.has(ref.kind)) continue;
      if (!qualifies.has(key)) {
        const census = await deps.store.latestCensus(ref);
        qualifies.set(key, census !== null && census.dependents !== null && census.dependents >= minDependents);
      }
      if (!qualifies.get(key)) continue;
      changes++;
      if (candidates.size < MAX_CANDIDATES) candidates.set(key, ref);
    }
  }
  const held = await deps.store.observationsOfMany([...candidates.values()]);
  const best: RecentChange[] = [];
  for (const [key, ref] of candidates)
    for (const mutation of stateMutations(held.get(key) ?? [])) best.push({ ref, mutation });
  return best.sort(newestFirst).slice(0, limit);
}

function newestFirst(x: RecentChange, y: RecentChange): number {
  if (x.mutation.observed !== y.mutation.observed) return x.mutation.observed < y.mutation.observed ? 1 : -1;
  const a = `${x.ref.kind}:${x.ref.id}`;
  const b = `${y.ref.kind}:${y.ref.id}`;
  return a < b ? -1 : a > b ? 1 : 0;
}
