/**
 * bench:registry's extrapolation: the measured figures at BENCH_SCALE, scaled to the real sizes of
 * sizes.ts (every generated registry is drawn at the same scale, so each count is × 1 / scale),
 * for a year of the seven followed registries, Maven Central (no feed: only what is watched or
 * asked about, so nothing here) and GitHub (the repositories the held packages name).
 */
import { FEED_BUDGETS } from '../src/upstreams/registries.js';
import type { FollowedRegistry } from '../src/upstreams/following/follower.js';
import { FOLLOW_PASS_MS } from '../src/upstreams/registries.js';
import { BUDGETED_UPSTREAMS, DEFAULT_BUDGETS, type BudgetedUpstream } from '../src/upstreams/http/budget-limits.js';
import { SHARE_OF_DAY } from '../src/upstreams/http/budget.js';
import { REGISTRY_SHAPES } from '../src/simulator/registries/sizes.js';

/**
 * GitHub, assumed (the generated packages name no repository, so nothing here is measured): half
 * of all held packages name a GitHub repository, read in GraphQL batches of 100 at 1 point a
 * batch, each repository read on its sweep day and on its package's change days.
 */
export const GITHUB_ASSUMED = { shareNamingRepo: 0.5, batch: 100 } as const;

/**
 * The listings read in pages that grow with the registry (npm's _changes from 0, Go's index, NuGet's
 * catalog); the others are one file whatever the size (PyPI's /simple/, the crates.io dump,
 * RubyGems' /versions, Packagist's list.json).
 */
const PAGED_LISTINGS: ReadonlySet<FollowedRegistry> = new Set(['npm', 'golang', 'nuget']);

export interface Requests {
  feed: number;
  reads: number;
}

export interface Measured {
  scale: number;
  days: number;
  /**
   * Requests per host over the first backfill, and per simulated day on average after it, as
   * tended's budgets counted them: the feeds' (sent at the top priority) apart from the reads'.
   */
  backfillRequests: Partial<Record<BudgetedUpstream, Requests>>;
  dailyRequests: Partial<Record<BudgetedUpstream, Requests>>;
  /** The registries followed in the run. */
  registries: readonly FollowedRegistry[];
  /** Virtual minutes between two polls of a follower in the run. */
  pollMinutes: number;
  /** Followed reads per simulated day on average (all registries), and held packages at the end. */
  readsPerDay: number;
  held: number;
  backfillReads: number;
  backfillCpuSeconds: number;
  cpuSecondsPerDay: number;
  storeBytesAfterBackfill: number;
  storeGrowthPerDay: number;
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

export function extrapolate(m: Measured): string[] {
  const up = 1 / m.scale;
  const lines: string[] = [];
  const fullPackages = m.registries.reduce((a, r) => a + REGISTRY_SHAPES[r].packages, 0);
  lines.push(
    `full size: ${fmt(fullPackages)} packages in ${m.registries.length === 7 ? 'the seven followed registries' : m.registries.join(', ')} (× ${fmt(up)} the measured ${fmt(m.held)})`,
  );
  lines.push(
    "feeds: a paged listing grows with its registry (npm's _changes, Go's index, NuGet's catalog: × 1 / scale), a " +
      'one-file listing does not (PyPI, crates.io, RubyGems, Packagist); nor does a poll (a ' +
      "poll's new entries fit one page at full size: npm's 80,000 seq a day are 56 a minute), so a day's feed requests " +
      `are those of serve's polling periods (FOLLOW_PASS_MS), from the run's ${m.pollMinutes}-minute polls`,
  );
  lines.push('host            backfill req   backfill at budget     req/day    budget/day   year fits?');
  const registryOf = Object.fromEntries(Object.entries(FEED_BUDGETS).map(([r, u]) => [u, r])) as Partial<
    Record<BudgetedUpstream, FollowedRegistry>
  >;
  let allFit = true;
  for (const upstream of BUDGETED_UPSTREAMS) {
    const b = m.backfillRequests[upstream] ?? { feed: 0, reads: 0 };
    const d = m.dailyRequests[upstream] ?? { feed: 0, reads: 0 };
    if (b.feed + b.reads + d.feed + d.reads === 0) continue;
    const limit = DEFAULT_BUDGETS[upstream];
    const registry = registryOf[upstream];
    const polls = registry ? (m.pollMinutes * 60_000) / FOLLOW_PASS_MS[registry] : 1;
    const backfill = b.reads * up + b.feed * (registry && PAGED_LISTINGS.has(registry) ? up : 1);
    const daily = d.reads * up + d.feed * polls;
    // The backfill runs at rank 1 (SHARE_OF_DAY[1] of the day) and at most perSecond the whole day.
    const backfillDays = backfill / Math.min(limit.perDay * SHARE_OF_DAY[1]!, limit.perSecond * 86_400);
    const fits = daily <= limit.perDay;
    allFit &&= fits;
    lines.push(
      `${upstream.padEnd(15)} ${fmt(backfill).padStart(12)}   ${`${fmt(backfillDays, 1)} days`.padStart(16)}   ${fmt(daily).padStart(9)}   ${fmt(limit.perDay).padStart(11)}   ${fits ? 'yes' : `NO (${fmt(daily / limit.perDay, 1)}×)`}`,
    );
  }
  const repos = fullPackages * GITHUB_ASSUMED.shareNamingRepo;
  const readsPerPackageDay = m.readsPerDay / m.held;
  const githubDaily = (repos * readsPerPackageDay) / GITHUB_ASSUMED.batch;
  const github = DEFAULT_BUDGETS.github;
  lines.push(
    `${'github'.padEnd(15)} ${fmt(repos / GITHUB_ASSUMED.batch).padStart(12)}   ${`${fmt(repos / GITHUB_ASSUMED.batch / (github.perDay * SHARE_OF_DAY[1]!), 1)} days`.padStart(16)}   ${fmt(githubDaily).padStart(9)}   ${fmt(github.perDay).padStart(11)}   ${githubDaily <= github.perDay ? 'yes' : 'NO'}  (assumed: ${GITHUB_ASSUMED.shareNamingRepo * 100} % of packages name a repo, ${GITHUB_ASSUMED.batch} a GraphQL batch, read as often as their packages)`,
  );
  lines.push(`maven           not followed (no feed): only what is watched or asked about; nothing to extrapolate`);
  lines.push(
    `reads: ${fmt(readsPerPackageDay * 100, 2)} % of held packages a day → ${fmt(m.readsPerDay * up)} reads a day, ${fmt(m.readsPerDay * up * 365)} a year`,
  );
  const cpuPerRead = m.cpuSecondsPerDay / Math.max(1, m.readsPerDay);
  lines.push(
    `CPU: ${fmt(cpuPerRead * 1000, 2)} ms a read (followers' passes included) → ${fmt((m.cpuSecondsPerDay * up) / 3600, 1)} CPU-hours a day; first backfill ${fmt((m.backfillCpuSeconds * up) / 3600, 1)} CPU-hours`,
  );
  const bytesPerRead = m.storeGrowthPerDay / Math.max(1, m.readsPerDay);
  lines.push(
    `store: ${fmt(m.storeBytesAfterBackfill / m.backfillReads)} bytes a backfill read, ${fmt(bytesPerRead)} a later read → ${fmt((m.storeBytesAfterBackfill * up) / 1e9, 1)} GB after the backfill, +${fmt((m.storeGrowthPerDay * up) / 1e9, 2)} GB a day, +${fmt((m.storeGrowthPerDay * up * 365) / 1e9, 0)} GB a year`,
  );
  lines.push(`a year fits every budget: ${allFit ? 'yes' : 'NO'}`);
  return lines;
}
