import { utcDateOf } from '../domain/calendar.js';
import { CENSUS_KINDS, type Census, type NewCensus } from '../domain/census.js';
import { normaliseComponent, type ComponentKind, type ComponentRef } from '../domain/component.js';
import { ValidationError } from '../domain/errors.js';
import { LISTING_MAX_PER_PAGE, LISTING_METHOD } from '../upstreams/dependents/listing.js';
import type { ListedPackage } from '../upstreams/source.js';
import type { ObserverDeps } from './observe.js';

/** How a whole census reads: the listing first, then one by one what it did not reach. */
export interface CensusOptions {
  /** TENDED_PAGE_MIN_DEPENDENTS: the listing is read down to the first count below it (default 1). */
  minDependents?: number;
  /** Packages a listing page holds (default and at most 1,000). */
  perPage?: number;
  /** Per registry, at most this many watched packages never counted are read one by one in a run (default 1,000). */
  firstReads?: number;
  /** Tries of a failed listing page after the first, before the registry's listing stops for this run (default 3). */
  retries?: number;
  /** The longest wait a retry takes; a source that asks for more is read in a later run (default 120 s). */
  maxWaitMs?: number;
  /** How a retry waits (tests keep the real one; default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every batch appended, so a caller can show them without the run holding them all. */
  onAppended?: (census: Census[]) => void;
}

export interface CensusSummary {
  /** Census leaves appended. */
  read: number;
  /** Of those, reads that gave a count (the others: null, with why). */
  counted: number;
  /** Listing pages read, and requests for one package. */
  listingPages: number;
  perPackage: number;
  /** Registries whose listing stopped before the floor: their packages not reached are read in a later run. */
  incomplete: ComponentKind[];
}

const PER_PACKAGE_BATCH = 100;
const STORE_PAGE = 500;
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * `tended census`: the dependents counts of the watched packages the dependents source covers,
 * each appended as a census leaf dated when it was read, with the URL it was read from. A failed
 * read is recorded as such (dependents null, with its evidence), never as zero.
 *
 * Named packages (`refs`) are read one request each. A whole census reads each registry's listing
 * most depended-upon first, a thousand counts a request, down to the first count below the page
 * threshold, and records the watched packages it lists; then one by one, the watched packages the
 * listing did not reach whose latest census still gives them a page (so no page stands on a count
 * the listing no longer shows), and up to `firstReads` watched packages never counted. A listing
 * page that fails is tried again after the wait its source asks for; one that keeps failing ends
 * that registry's listing for the run, and nothing is recorded for the packages it would have held.
 */
export async function takeCensus(
  deps: ObserverDeps,
  refs?: ComponentRef[],
  onStart?: (targets: number) => { read(): void },
  options: CensusOptions = {},
): Promise<CensusSummary> {
  const summary: CensusSummary = { read: 0, counted: 0, listingPages: 0, perPackage: 0, incomplete: [] };
  const append = async (reads: NewCensus[]) => {
    if (reads.length === 0) return;
    const { census } = await deps.store.appendCensus(reads, deps.notary.seal);
    summary.read += census.length;
    summary.counted += census.filter((c) => c.dependents !== null).length;
    options.onAppended?.(census);
  };
  if (refs !== undefined) {
    const targets = refs.filter((r) => CENSUS_KINDS.has(r.kind));
    const progress = targets.length > 0 ? onStart?.(targets.length) : undefined;
    await readOneByOne(deps, targets, summary, append, () => progress?.read());
    return summary;
  }
  // Leaves before this run: a latest census below this index was not read by it.
  const runStart = await deps.store.treeSize();
  for (const kind of CENSUS_KINDS) {
    const complete = await readListing(deps, kind, options, summary, append);
    if (!complete) summary.incomplete.push(kind);
    await readStaleAdopted(deps, kind, runStart, options.minDependents ?? 1, summary, append);
    await readNeverCounted(deps, kind, options.firstReads ?? 1_000, summary, append);
  }
  return summary;
}

async function readOneByOne(
  deps: ObserverDeps,
  targets: ComponentRef[],
  summary: CensusSummary,
  append: (reads: NewCensus[]) => Promise<void>,
  onRead: () => void = () => {},
): Promise<void> {
  for (let i = 0; i < targets.length; i += PER_PACKAGE_BATCH) {
    const reads: NewCensus[] = [];
    for (const ref of targets.slice(i, i + PER_PACKAGE_BATCH)) {
      const readAt = deps.clock.now();
      const reading = await deps.sources.dependents.read(ref);
      summary.perPackage++;
      reads.push({
        component: ref,
        read_at: iso(readAt),
        read_date: utcDateOf(readAt),
        dependents: reading.dependents,
        source: reading.source,
        evidence: reading.evidence,
        method: reading.method,
      });
      onRead();
    }
    await append(reads);
  }
}

/** The listed name as Tended keeps it, or null for a name it cannot hold (it is then not counted here). */
function refOf(kind: ComponentKind, name: string): ComponentRef | null {
  try {
    return normaliseComponent(kind, name);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

/**
 * Reads a registry's listing page by page down to the floor, appending each page's watched
 * packages as it goes (a run stopped midway keeps what it read). True when it reached the floor
 * or the listing's end; false when a page kept failing or the listing broke its own order.
 */
async function readListing(
  deps: ObserverDeps,
  kind: ComponentKind,
  options: CensusOptions,
  summary: CensusSummary,
  append: (reads: NewCensus[]) => Promise<void>,
): Promise<boolean> {
  const floor = options.minDependents ?? 1;
  const perPage = Math.min(Math.max(1, options.perPage ?? LISTING_MAX_PER_PAGE), LISTING_MAX_PER_PAGE);
  const retries = options.retries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let failures = 0;
  let previous = Number.POSITIVE_INFINITY;
  for (let page = 1; ; page++) {
    const readAt = deps.clock.now();
    const answer = await deps.sources.dependents.list(kind, page, perPage);
    if (answer === null) return true;
    summary.listingPages++;
    if (answer.kind === 'failed') {
      // Back off 1 s, 2 s, 4 s… unless the source said how long; never a count for what it would have listed.
      const wait = answer.retryAfterMs ?? 1_000 * 2 ** failures;
      if (++failures > retries || wait > maxWaitMs) return false;
      await sleep(wait);
      page--;
      continue;
    }
    failures = 0;
    const entries = answer.entries;
    const listed = entries.flatMap((e, at) => {
      const ref = refOf(kind, e.name);
      return ref === null || e.dependents === null ? [] : [{ ref, entry: e, position: (page - 1) * perPage + at + 1 }];
    });
    const counted = await deps.store.watchedAmong(listed.map((l) => l.ref));
    await append(
      listed
        .filter((l) => counted.has(`${l.ref.kind}:${l.ref.id}`))
        .map(({ ref, entry, position }) => listedCensus(ref, entry, position, answer.url, answer.evidence, readAt)),
    );
    // The floor is inferred from the order only while the listing keeps it.
    const counts = entries.map((e) => e.dependents ?? 0);
    const ordered = counts.every((c, i) => c <= (i === 0 ? previous : counts[i - 1]!));
    if (!ordered) return false;
    if (entries.length < perPage) return true;
    previous = counts.at(-1)!;
    if (previous < floor) return true;
  }
}

function listedCensus(
  ref: ComponentRef,
  entry: ListedPackage,
  position: number,
  url: string,
  evidence: NewCensus['evidence'],
  readAt: Date,
): NewCensus {
  return {
    component: ref,
    read_at: iso(readAt),
    read_date: utcDateOf(readAt),
    dependents: entry.dependents,
    source: url,
    evidence: {
      ...evidence,
      position,
      listed_name: entry.name,
      dependent_packages_count: entry.dependents,
      dependent_repos_count: entry.dependent_repos_count,
      package_status: entry.status,
    },
    method: LISTING_METHOD,
  };
}

/** Watched packages whose latest census gives them a page and which this run has not read: one by one. */
async function readStaleAdopted(
  deps: ObserverDeps,
  kind: ComponentKind,
  runStart: number,
  minDependents: number,
  summary: CensusSummary,
  append: (reads: NewCensus[]) => Promise<void>,
): Promise<void> {
  // '' sorts before every id: the walk starts at the kind's first package.
  let after: ComponentRef = { kind, id: '' };
  for (;;) {
    const page = await deps.store.adoptedPage(after, minDependents, STORE_PAGE);
    const ofKind = page.filter((a) => a.component.kind === kind);
    const stale = ofKind.filter((a) => a.leaf_index < runStart).map((a) => a.component);
    const counted = await deps.store.watchedAmong(stale);
    await readOneByOne(
      deps,
      stale.filter((r) => counted.has(`${r.kind}:${r.id}`)),
      summary,
      append,
    );
    if (page.length < STORE_PAGE || ofKind.length < page.length) return;
    after = page.at(-1)!.component;
  }
}

/** Watched packages whose dependents were never read, up to `limit`: one by one. */
async function readNeverCounted(
  deps: ObserverDeps,
  kind: ComponentKind,
  limit: number,
  summary: CensusSummary,
  append: (reads: NewCensus[]) => Promise<void>,
): Promise<void> {
  let left = limit;
  let first: string | null = null;
  while (left > 0) {
    // Each read takes its package off the list (a failed read too), so the next page starts at the front.
    const page = await deps.store.uncountedWatched(kind, null, Math.min(left, PER_PACKAGE_BATCH));
    if (page.length === 0 || page[0]!.id === first) return;
    first = page[0]!.id;
    await readOneByOne(deps, page, summary, append);
    left -= page.length;
  }
}
