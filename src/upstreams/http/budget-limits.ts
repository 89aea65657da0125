/**
 * Every host Tended sends requests to, and the request budget it keeps to on each: requests a
 * second and requests a UTC day, under what the host publishes (docs/configuration.md#upstream-budgets
 * cites each figure). A host's readers and its feed share one budget: PyPI's JSON API and its
 * /simple/ listing are the same pypi.org.
 */

/** The budgeted hosts, by the names the configuration (TENDED_BUDGET_*) and the metrics use. */
export const BUDGETED_UPSTREAMS = [
  'github',
  'npm',
  'npmReplicate',
  'pypi',
  'endoflife',
  'dockerhub',
  'dependents',
  'maven',
  'goproxy',
  'goIndex',
  'rubygems',
  'packagist',
  'packagistOrg',
  'crates',
  'cratesIndex',
  'cratesStatic',
  'nuget',
  'osv',
  'osvExport',
] as const;
export type BudgetedUpstream = (typeof BUDGETED_UPSTREAMS)[number];

export interface BudgetLimit {
  /** Requests a second, sent evenly spaced (a fraction is allowed: 0.5 is one every two seconds). */
  readonly perSecond: number;
  /** Requests a UTC day. */
  readonly perDay: number;
}

export type BudgetLimits = Readonly<Record<BudgetedUpstream, BudgetLimit>>;

/**
 * The defaults, each under its host's published limit or, where none is published, near what
 * careful crawlers keep to (ecosyste.ms throttles itself per host). The sources are in
 * docs/configuration.md; change both together.
 */
export const DEFAULT_BUDGETS: BudgetLimits = {
  // REST 5,000 an hour with a token (120,000 a day); secondary limit 900 points a minute (15/s).
  github: { perSecond: 10, perDay: 100_000 },
  // None published; ecosyste.ms keeps to 3/s, a third-party full crawl ran 227/s with no refusal.
  npm: { perSecond: 20, perDay: 1_500_000 },
  // None published; a page carries up to 10,000 changes.
  npmReplicate: { perSecond: 5, perDay: 50_000 },
  // None published for the JSON API or /simple/; XML-RPC 3,600 an hour (one call a follow pass).
  pypi: { perSecond: 5, perDay: 300_000 },
  endoflife: { perSecond: 2, perDay: 10_000 },
  // Docker Hub sends its own X-RateLimit headers (honoured); its figures change, none is fixed.
  dockerhub: { perSecond: 2, perDay: 20_000 },
  // ecosyste.ms: 5,000 an hour per address (120,000 a day, 1.4/s).
  dependents: { perSecond: 1, perDay: 100_000 },
  // No figure; 429 to heavy users and a ban on mirroring; ecosyste.ms keeps to 2/s.
  maven: { perSecond: 2, perDay: 50_000 },
  // None published; ecosyste.ms keeps to 5/s.
  goproxy: { perSecond: 5, perDay: 300_000 },
  // None published; a page is up to 2,000 versions.
  goIndex: { perSecond: 2, perDay: 20_000 },
  // "API and website: 10 requests per second".
  rubygems: { perSecond: 5, perDay: 200_000 },
  // Static files: "up to 20 concurrent requests"; no rate published.
  packagist: { perSecond: 10, perDay: 500_000 },
  // packagist.org: "a maximum of 10 concurrent requests".
  packagistOrg: { perSecond: 2, perDay: 10_000 },
  // "A maximum of 1 request per second" (86,400 a day).
  crates: { perSecond: 1, perDay: 50_000 },
  // "No rate limits are required to use data from the sparse crate index".
  cratesIndex: { perSecond: 20, perDay: 1_000_000 },
  // The daily database dump and the RSS feed: a few files a day.
  cratesStatic: { perSecond: 1, perDay: 1_000 },
  // V3 "is not rate limited currently"; ecosyste.ms keeps to 5/s.
  nuget: { perSecond: 5, perDay: 300_000 },
  // OSV's API publishes no rate limit; one query per crate read, at the crates index's pace or less.
  osv: { perSecond: 10, perDay: 300_000 },
  // OSV's export bucket (Cloud Storage) publishes no limit: modified_id.csv once a crates.io follow
  // step (every 10 minutes, 144 a day) and each changed record once; a rewrite of the whole
  // ecosystem (~2,000 records) fits a day several times over.
  osvExport: { perSecond: 5, perDay: 20_000 },
};

/**
 * GitHub without a token: 60 requests an hour, 1,440 a day. The hour is GitHub's to enforce: its
 * answer that spends the hour names the reset, and every GitHub read is held until then.
 */
export const GITHUB_WITHOUT_TOKEN: BudgetLimit = { perSecond: 10, perDay: 1_200 };

/** `cratesIndex` → `TENDED_BUDGET_CRATES_INDEX`. */
export function budgetVariable(name: BudgetedUpstream): string {
  return `TENDED_BUDGET_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** The defaults for a deployment with or without a GitHub token, with the operator's overrides. */
export function budgetLimits(
  githubToken: boolean,
  overrides: Partial<Record<BudgetedUpstream, BudgetLimit>> = {},
): BudgetLimits {
  return Object.freeze({
    ...DEFAULT_BUDGETS,
    ...(githubToken ? {} : { github: GITHUB_WITHOUT_TOKEN }),
    ...overrides,
  });
}
