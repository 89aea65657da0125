/**
 * The simulated ecosyste.ms packages API (research §2.2): a package's dependents count, for every
 * registry it indexes, and the registry's listing of packages most depended-upon first
 * (`/api/v1/registries/{registry}/packages?sort=dependent_packages_count&order=desc`), which
 * counts each package exactly as its own answer does.
 *
 * A generated registry's packages (registries/) are counted too, without a table: package i's
 * rank is drawn by a permutation of the seed, and its count falls with its rank (a power law, as
 * real adoption does), so a listing page is found by a binary search over ranks, never a sort.
 */
import type { ComponentKind } from '../domain/component.js';
import { commonFailure, isCommonFail, json, notFound, type Ctx, type SimAnswer } from './answer.js';
import { AffinePermutation } from './registries/draw.js';
import type { GeneratedRegistry } from './registries/registry.js';
import type { Scenario } from './scenario.js';
import type { Fail, ListingFault } from './scenario-phases.js';
import type { World } from './world.js';

/** ecosyste.ms's registry names (its registries' domains) → the kind of the scenario's components. */
const REGISTRY_KINDS: Readonly<Record<string, ComponentKind>> = {
  'pypi.org': 'pypi',
  'repo1.maven.org': 'maven',
  'proxy.golang.org': 'golang',
  'crates.io': 'cargo',
  'rubygems.org': 'gem',
  'packagist.org': 'composer',
};

/** pagy's defaults in ecosyste.ms's packages service: 100 a page, at most 1,000. */
const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1_000;
/** The most depended-upon generated package's count, as a share of its registry's packages (npm: ≈ 200,000). */
const TOP_SHARE = 0.047;
/** How fast counts fall with rank: rank r counts top / (r + 1)^EXPONENT. */
const EXPONENT = 0.9;
const RANK_SALT = 23;

interface Counted {
  from: string;
  status?: number;
  versions?: Record<string, unknown>;
  dependents?: number | null;
  dependents_fail?: Fail;
}

interface Listed {
  name: string;
  count: number;
  latest: string | null;
}

function kindOf(world: World, registry: string): ComponentKind | undefined {
  return registry === (world.scenario.dependents_registry ?? 'npmjs.org') ? 'npm' : REGISTRY_KINDS[registry];
}

function packageBody(kind: ComponentKind, registry: string, p: Listed) {
  return {
    name: p.name,
    ecosystem: kind,
    registry_url: `https://${registry}/${p.name}`,
    dependent_packages_count: p.count,
    dependent_repos_count: p.count * 3,
    latest_release_published_at: p.latest,
    status: null,
  };
}

export function answerDependents(ctx: Ctx, world: World): SimAnswer {
  const listing = /^\/api\/v1\/registries\/([^/]+)\/packages\/?$/.exec(ctx.path);
  if (listing) return answerListing(ctx, world, decodeURIComponent(listing[1]!));
  const m = /^\/api\/v1\/registries\/([^/]+)\/packages\/(.+?)\/?$/.exec(ctx.path);
  if (!m) return notFound('dependents', ctx);
  const registry = decodeURIComponent(m[1]!);
  const kind = kindOf(world, registry);
  if (kind === undefined) return notFound('dependents', ctx);
  const name = decodeURIComponent(m[2]!);
  const p = world.phase<Counted>(`${kind}:${name}`, ctx);
  if (!p) {
    const generated = generatedPackage(world, kind, name, ctx);
    return generated ? json(200, packageBody(kind, registry, generated)) : notFound('dependents', ctx);
  }
  if (p.dependents_fail && isCommonFail(p.dependents_fail))
    return commonFailure('dependents', p.dependents_fail, ctx, p.status);
  if (p.dependents === undefined || p.dependents === null) return notFound('dependents', ctx);
  return json(200, packageBody(kind, registry, { name, count: p.dependents, latest: latestOf(p) }));
}

function latestOf(p: Counted): string | null {
  const times = Object.values(p.versions ?? {})
    .filter((t): t is string => typeof t === 'string')
    .sort();
  return times.at(-1) ?? null;
}

/** Failures served so far by each fault of a scenario: `times` counts down per scenario set. */
const served = new WeakMap<Scenario, number[]>();

function listingFault(world: World, registry: string, page: number): ListingFault | null {
  const faults = world.scenario.dependents_listing_faults ?? [];
  const counts = served.get(world.scenario) ?? faults.map(() => 0);
  served.set(world.scenario, counts);
  const at = faults.findIndex(
    (f, i) => f.registry === registry && f.page === page && (f.times === undefined || counts[i]! < f.times),
  );
  if (at < 0) return null;
  counts[at]!++;
  return faults[at]!;
}

function answerListing(ctx: Ctx, world: World, registry: string): SimAnswer {
  const kind = kindOf(world, registry);
  if (kind === undefined) return json(404, { error: 'Not Found' });
  const sort = ctx.query.get('sort');
  if (sort !== null && sort !== 'dependent_packages_count')
    return json(400, { error: 'the simulated listing is sorted by dependent_packages_count only' });
  if ((ctx.query.get('order') ?? 'desc') !== 'desc')
    return json(400, { error: 'the simulated listing is in descending order only' });
  const page = Math.max(1, Number.parseInt(ctx.query.get('page') ?? '1', 10) || 1);
  const perPage = Math.min(
    MAX_PER_PAGE,
    Math.max(1, Number.parseInt(ctx.query.get('per_page') ?? String(DEFAULT_PER_PAGE), 10) || DEFAULT_PER_PAGE),
  );
  const fault = listingFault(world, registry, page);
  if (fault?.fail === 'rate_limit_429') {
    // ecosyste.ms's limit is per IP an hour; the simulator asks for a second's wait, so tests stay fast.
    return json(
      429,
      { error: 'Too Many Requests' },
      {
        'retry-after': '1',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(ctx.nowSec + 1),
      },
      false,
    );
  }
  if (fault) return commonFailure('dependents', fault.fail, ctx);
  const entries = listingPage(world, kind, ctx, (page - 1) * perPage, perPage);
  return json(
    200,
    entries.map((p) => packageBody(kind, registry, p)),
    { 'current-page': String(page), 'page-items': String(perPage) },
  );
}

/** The scenario's counted packages of a kind, most depended-upon first, then by name. */
function scenarioListed(world: World, kind: ComponentKind, ctx: Ctx): Listed[] {
  const out: Listed[] = [];
  for (const key of Object.keys(world.scenario.components)) {
    if (!key.startsWith(`${kind}:`)) continue;
    const p = world.phase<Counted>(key, ctx);
    if (typeof p?.dependents === 'number')
      out.push({ name: key.slice(kind.length + 1), count: p.dependents, latest: latestOf(p) });
  }
  return out.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A generated registry's counts by rank: rank → package and back, and the count of a rank. */
class GeneratedCounts {
  private readonly order: AffinePermutation;
  private readonly top: number;
  constructor(readonly reg: GeneratedRegistry) {
    this.order = AffinePermutation.drawn(reg.initialPackages, reg.seed, RANK_SALT);
    this.top = Math.max(1, Math.round(reg.initialPackages * TOP_SHARE));
  }
  /** Packages created after the start rank after every initial one, in the order they were created. */
  indexOf(rank: number): number {
    return rank < this.reg.initialPackages ? this.order.forward(rank) : rank;
  }
  rankOf(index: number): number {
    return index < this.reg.initialPackages ? this.order.backward(index) : index;
  }
  count(rank: number): number {
    return rank < this.reg.initialPackages ? Math.floor(this.top / (rank + 1) ** EXPONENT) : 0;
  }
  /** The first rank in [0, n] whose count is at most `c` (counts never rise with rank). */
  firstAtMost(c: number, n: number): number {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.count(mid) <= c) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

const countsOf = new WeakMap<GeneratedRegistry, GeneratedCounts>();
function generatedCounts(world: World, kind: ComponentKind): GeneratedCounts | null {
  const reg = world.generatedRegistry(kind);
  if (!reg) return null;
  let counts = countsOf.get(reg);
  if (!counts) {
    counts = new GeneratedCounts(reg);
    countsOf.set(reg, counts);
  }
  return counts;
}

function generatedPackage(world: World, kind: ComponentKind, name: string, ctx: Ctx): Listed | null {
  const counts = generatedCounts(world, kind);
  const index = counts?.reg.indexOf(name) ?? null;
  if (counts === null || index === null || index >= counts.reg.packagesBy(ctx.nowSec * 1000)) return null;
  return { name: counts.reg.nameOf(index), count: counts.count(counts.rankOf(index)), latest: null };
}

/**
 * Entries [offset, offset + size) of the listing: the scenario's packages and the generated ones
 * merged by count (a tie lists the scenario's first, then by rank), each position computed, so a
 * page deep in millions costs a binary search.
 */
function listingPage(world: World, kind: ComponentKind, ctx: Ctx, offset: number, size: number): Listed[] {
  const scenario = scenarioListed(world, kind, ctx);
  const gen = generatedCounts(world, kind);
  const n = gen ? gen.reg.packagesBy(ctx.nowSec * 1000) : 0;
  // Merged positions: a generated rank after the scenario packages counting at least as many, and
  // a scenario package after the generated ranks counting more.
  const atLeast = (c: number) => scenario.filter((s) => s.count >= c).length;
  const posOfRank = (r: number) => r + atLeast(gen!.count(r));
  const posOfScenario = (i: number) => i + (gen ? gen.firstAtMost(scenario[i]!.count, n) : 0);
  let r = 0;
  let hi = n;
  while (r < hi) {
    const mid = Math.floor((r + hi) / 2);
    if (posOfRank(mid) >= offset) hi = mid;
    else r = mid + 1;
  }
  let i = 0;
  while (i < scenario.length && posOfScenario(i) < offset) i++;
  const out: Listed[] = [];
  while (out.length < size && (r < n || i < scenario.length)) {
    if (i < scenario.length && (r >= n || posOfScenario(i) < posOfRank(r))) out.push(scenario[i++]!);
    else {
      const index = gen!.indexOf(r);
      out.push({ name: gen!.reg.nameOf(index), count: gen!.count(r), latest: null });
      r++;
    }
  }
  return out;
}
