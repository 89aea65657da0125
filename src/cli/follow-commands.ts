import type { Config } from '../config/config.js';
import { FOLLOWED_REGISTRIES, type FollowedRegistry } from '../upstreams/following/follower.js';
import { createFollower } from '../upstreams/followers.js';
import type { PassSummary } from '../upstreams/following/follow-pass.js';
import { followOnce, startFollowing, type Following } from '../observer/follow-loop.js';
import type { Clock } from '../operations/deps.js';
import { followStatus, type FollowerStatus } from '../operations/follow.js';
import type { Store } from '../storage/store.js';
import type { UpstreamBudgets } from '../upstreams/http/budget.js';
import { openRecord, USER_AGENT } from './record.js';
import type { CliWiring } from './wiring.js';
import { excerpt } from '../domain/text.js';

/** A feed page can be large (PyPI's /simple/, the crates.io dump): a minute before giving up on one. */
const FEED_TIMEOUT_MS = 60_000;

/** The followers of TENDED_FOLLOW's registries, started; null when none is followed. */
export function startConfiguredFollowing(
  config: Config,
  deps: { store: Store; clock: Clock; budgets?: UpstreamBudgets },
  report: {
    onPass?: (registry: FollowedRegistry, summary: PassSummary) => void;
    onError?: (registry: FollowedRegistry, error: unknown) => void;
  },
): Following | null {
  if (config.follow.registries.length === 0) return null;
  return startFollowing(deps, configuredFollowers(config, deps), report);
}

/** One pass of each of TENDED_FOLLOW's followers (`observe --once`); empty when none is followed. */
export function followConfiguredOnce(config: Config, deps: { store: Store; clock: Clock; budgets?: UpstreamBudgets }) {
  return followOnce(deps, configuredFollowers(config, deps));
}

function configuredFollowers(config: Config, deps: { clock: Clock; budgets?: UpstreamBudgets }) {
  return config.follow.registries.map((registry) =>
    createFollower(registry, {
      urls: config.follow.feeds,
      osvExport: config.follow.osvExport,
      userAgent: USER_AGENT,
      timeoutMs: FEED_TIMEOUT_MS,
      clock: () => deps.clock.now(),
      // A feed spends its host's budget, shared with the readers of that host.
      ...(deps.budgets ? { budgets: deps.budgets } : {}),
    }),
  );
}

/** `tended follow status [--json]`: each followed registry's cursor, lag, faults, backfill and reads today. */
export async function followCommand(config: Config, wiring: CliWiring, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  const json = rest.includes('--json');
  if (action !== 'status' || rest.some((a) => a !== '--json')) {
    wiring.stderr.write('tended: follow takes status [--json]\n');
    return 2;
  }
  const deps = await openRecord(config, wiring, { readOnly: true });
  try {
    // The registries followed now, and any followed before (a cursor is kept): seven small reads.
    const kept = await Promise.all(
      FOLLOWED_REGISTRIES.map(async (r) => ((await deps.store.followCursor(r)) === null ? null : r)),
    );
    const registries = FOLLOWED_REGISTRIES.filter((r) => config.follow.registries.includes(r) || kept.includes(r));
    const statuses = await followStatus(deps.store, registries, deps.clock);
    if (json) wiring.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
    else if (statuses.length === 0)
      wiring.stdout.write('no registry is followed: set TENDED_FOLLOW (e.g. npm,pypi) for serve or observe\n');
    else for (const s of statuses) wiring.stdout.write(describe(s, config.follow.registries.includes(s.registry)));
    return 0;
  } finally {
    await deps.store.close();
  }
}

function describe(s: FollowerStatus, configured: boolean): string {
  const share = s.backfill.listed === 0 ? '' : ` (${((100 * s.backfill.read_once) / s.backfill.listed).toFixed(1)} %)`;
  const lines = [
    `${s.registry}: ${s.status}${configured ? '' : ' (not in TENDED_FOLLOW now: its cursor and packages are kept)'}`,
    `  cursor           ${s.cursor === null ? 'none yet (the first pass lists the registry)' : clip(s.cursor)}`,
    `  last read        ${s.last_read_at ?? 'never'}`,
    `  last contiguous  ${s.last_contiguous_at ?? 'never'}${s.lag_seconds === null ? '' : ` (lag ${duration(s.lag_seconds)})`}`,
    `  faults           ${s.faults_seen}${s.last_fault ? `, the last ${s.last_fault.at}: ${s.last_fault.kind}: ${s.last_fault.detail}` : ''}`,
    `  backfill         ${s.backfill.read_once} of ${s.backfill.listed} held packages read at least once${share}`,
    `  reads today      ${Object.entries(s.reads_today)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ')}`,
  ];
  return `${lines.join('\n')}\n`;
}

function clip(text: string): string {
  return excerpt(text, 200);
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} days`;
}
