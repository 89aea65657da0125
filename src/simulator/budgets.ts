/**
 * Tended's upstream budgets as the simulator counts them: each budgeted host under the path
 * prefix the simulator serves it at, so a test or a benchmark can have the simulator refuse and
 * record (traffic.ts) any request past the very budget the client was given.
 */
import { BUDGETED_UPSTREAMS, type BudgetedUpstream, type BudgetLimits } from '../upstreams/http/budget-limits.js';
import type { Budget } from './traffic.js';

/** The simulator's path prefix for each budgeted host. */
export const SIMULATED_HOSTS: Readonly<Record<BudgetedUpstream, string>> = {
  github: 'github',
  npm: 'npm',
  npmReplicate: 'replicate',
  pypi: 'pypi',
  endoflife: 'endoflife',
  dockerhub: 'dockerhub',
  dependents: 'dependents',
  maven: 'maven',
  goproxy: 'goproxy',
  goIndex: 'goindex',
  rubygems: 'rubygems',
  packagist: 'packagist',
  packagistOrg: 'packagistorg',
  crates: 'crates',
  cratesIndex: 'cratesindex',
  cratesStatic: 'cratesstatic',
  nuget: 'nuget',
  osv: 'osv',
  osvExport: 'osvexport',
};

/**
 * The simulator's budgets for `limits`. The simulator counts whole requests in each second of the
 * clock, so a rate of 0.5 a second is counted as at most one in any second.
 */
export function simulatedBudgets(limits: BudgetLimits): Record<string, Budget> {
  return Object.fromEntries(
    BUDGETED_UPSTREAMS.map((u) => [
      SIMULATED_HOSTS[u],
      { perSecond: Math.ceil(limits[u].perSecond), perDay: limits[u].perDay },
    ]),
  );
}
