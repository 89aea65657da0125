/**
 * The followers inside `serve` (and `tended observe`): each followed registry's pass on its own
 * period, each batch held for reading before its cursor is committed. One process of a deployment
 * follows a registry at a time: it holds the registry's lease in the store (follow_leases, taken
 * by a conditional upsert on both backends, renewed with every batch), and a process whose lease
 * another holds leaves that registry alone until the lease lapses (a holder that died). A
 * follower's error is reported and the pass tried again; it never stops the service.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isRefusedFeedFault, type FollowedRegistry, type Follower } from '../upstreams/following/follower.js';
import { followPass, type PassSummary } from '../upstreams/following/follow-pass.js';
import type { Clock } from '../operations/deps.js';
import { holdBatch, type LocalFollowState } from '../operations/follow.js';
import type { Store } from '../storage/store.js';
import { FOLLOW_PASS_MS } from '../upstreams/registries.js';

/** The lease on following a registry: renewed with every batch, so a dead holder frees it this soon. */
export const FOLLOW_LEASE_MS = 5 * 60_000;
/** After a pass that failed, the next starts this soon (or at the period, if shorter). */
export const FOLLOW_RETRY_MS = 30_000;
/**
 * After a pass that ended on an answer the follower refused (a page larger than asked for, a
 * cursor that does not move on), the next waits twice as long as the last, up to this: the
 * same upstream will likely answer the same, and its budget is not spent asking again and again.
 */
export const FOLLOW_BACKOFF_MAX_MS = 60 * 60_000;

export interface Following {
  /** What this process knows of each follower (its lease, its last pass and error). */
  local(registry: FollowedRegistry): LocalFollowState | null;
  /** Stops after each pass's batch in progress, and gives the leases up. */
  stop(): Promise<void>;
}

class Stopping extends Error {}

/**
 * One pass of a follower under the registry's lease: null when another process holds it. The
 * lease is renewed before each batch: a process that lost it (paused past it) stops there, and the
 * batch is left to the holder, which resumes from the same cursor.
 */
async function leasedPass(
  deps: { store: Store; clock: Clock },
  follower: Follower,
  holder: string,
  leaseMs: number,
  stopping: () => boolean,
  leased: (held: boolean) => void = () => undefined,
): Promise<PassSummary | null> {
  const registry = follower.registry;
  const leaseUntil = (at: Date) => new Date(at.getTime() + leaseMs).toISOString();
  const now = deps.clock.now();
  const held = await deps.store.leaseFollow(registry, holder, now.toISOString(), leaseUntil(now));
  leased(held);
  if (!held) return null;
  return followPass(
    follower,
    deps.store,
    async (batch) => {
      if (stopping()) throw new Stopping();
      const at = deps.clock.now();
      if (!(await deps.store.leaseFollow(registry, holder, at.toISOString(), leaseUntil(at))))
        throw new Error(`${registry}: another process took over following it`);
      await holdBatch(deps.store, batch, at);
    },
    () => deps.clock.now(),
  );
}

/** Who holds a lease: this host, this process, and an instance of the loop in it. */
function newHolder(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * `tended observe --once`: one pass of each follower, under the same leases as the loops of
 * `serve` and the workers (a registry another process follows now is left to it), the leases
 * given up at the end. What a pass held is due for the reads that follow it.
 */
export async function followOnce(
  deps: { store: Store; clock: Clock },
  followers: Follower[],
  options: { leaseMs?: number } = {},
): Promise<{ registry: FollowedRegistry; summary: PassSummary | null; error: string | null }[]> {
  const holder = newHolder();
  return Promise.all(
    followers.map(async (follower) => {
      const registry = follower.registry;
      try {
        const summary = await leasedPass(deps, follower, holder, options.leaseMs ?? FOLLOW_LEASE_MS, () => false);
        return { registry, summary, error: null };
      } catch (error) {
        return { registry, summary: null, error: error instanceof Error ? error.message : String(error) };
      } finally {
        await deps.store.releaseFollowLease(registry, holder).catch(() => undefined);
      }
    }),
  );
}

export function startFollowing(
  deps: { store: Store; clock: Clock },
  followers: Follower[],
  options: {
    /** Overrides each registry's passEveryMs (FOLLOW_PASS_MS; tests). */
    everyMs?: Partial<Record<FollowedRegistry, number>>;
    leaseMs?: number;
    /** Overrides FOLLOW_BACKOFF_MAX_MS (tests). */
    backoffMaxMs?: number;
    onPass?: (registry: FollowedRegistry, summary: PassSummary) => void;
    onError?: (registry: FollowedRegistry, error: unknown) => void;
  } = {},
): Following {
  const holder = newHolder();
  const leaseMs = options.leaseMs ?? FOLLOW_LEASE_MS;
  const states = new Map<FollowedRegistry, LocalFollowState>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const follow = (follower: Follower) => {
    const registry = follower.registry;
    const state: LocalFollowState = { following_here: false, last_pass_at: null, last_error: null };
    states.set(registry, state);
    const everyMs = options.everyMs?.[registry] ?? FOLLOW_PASS_MS[registry];
    const backoffMaxMs = options.backoffMaxMs ?? FOLLOW_BACKOFF_MAX_MS;
    /** Passes in a row that ended on a refused answer. */
    let refusals = 0;

    const pass = async () => {
      let wait = everyMs;
      try {
        const summary = await leasedPass(
          deps,
          follower,
          holder,
          leaseMs,
          () => stopped,
          (held) => (state.following_here = held),
        );
        if (summary) {
          state.last_pass_at = deps.clock.now().toISOString();
          const refused = summary.faults.findLast((f) => isRefusedFeedFault(f.kind));
          if (refused) {
            refusals++;
            wait = Math.min(backoffMaxMs, everyMs * 2 ** refusals);
            state.last_error = `${refused.kind}: ${refused.detail} (next pass in ${Math.round(wait / 1000)} s)`;
          } else {
            refusals = 0;
            state.last_error = null;
          }
          options.onPass?.(registry, summary);
        }
      } catch (error) {
        if (!(error instanceof Stopping)) {
          state.last_error = error instanceof Error ? error.message : String(error);
          wait = Math.min(everyMs, FOLLOW_RETRY_MS);
          options.onError?.(registry, error);
        }
      }
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        track(pass());
      }, wait);
      timers.add(timer);
    };
    track(pass());
  };

  const track = (p: Promise<void>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };

  for (const follower of followers) follow(follower);

  return {
    local: (registry) => states.get(registry) ?? null,
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([...running]);
      for (const [registry, state] of states)
        if (state.following_here) await deps.store.releaseFollowLease(registry, holder).catch(() => undefined);
    },
  };
}
