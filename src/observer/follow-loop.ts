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
import type { FollowedRegistry, Follower } from '../followers/follower.js';
import { followPass, type PassSummary } from '../followers/follow-pass.js';
import type { Clock } from '../operations/deps.js';
import { holdBatch, type LocalFollowState } from '../operations/follow.js';
import type { Store } from '../storage/store.js';

/**
 * How long a follower waits between passes (a pass itself runs until its feed is caught up). The
 * schedule is by day, so a minute's delay costs nothing but near midnight: npm's and RubyGems'
 * rows carry no time and are dated the day they are read, so those, and the cheap time-stamped
 * feeds (PyPI's journal, Go's index, Packagist's changes), are read every minute. NuGet's catalog
 * index is a large document read whole each pass, and crates.io's RSS keeps at least an hour:
 * five and ten minutes keep them well inside what they allow.
 */
export const FOLLOW_PASS_MS: Record<FollowedRegistry, number> = {
  npm: 60_000,
  pypi: 60_000,
  cargo: 10 * 60_000,
  golang: 60_000,
  nuget: 5 * 60_000,
  gem: 60_000,
  composer: 60_000,
};
/** The lease on following a registry: renewed with every batch, so a dead holder frees it this soon. */
export const FOLLOW_LEASE_MS = 5 * 60_000;
/** After a pass that failed, the next starts this soon (or at the period, if shorter). */
export const FOLLOW_RETRY_MS = 30_000;

export interface Following {
  /** What this process knows of each follower (its lease, its last pass and error). */
  local(registry: FollowedRegistry): LocalFollowState | null;
  /** Stops after each pass's batch in progress, and gives the leases up. */
  stop(): Promise<void>;
}

class Stopping extends Error {}

export function startFollowing(
  deps: { store: Store; clock: Clock },
  followers: Follower[],
  options: {
    /** Overrides FOLLOW_PASS_MS (tests). */
    everyMs?: Partial<Record<FollowedRegistry, number>>;
    leaseMs?: number;
    onPass?: (registry: FollowedRegistry, summary: PassSummary) => void;
    onError?: (registry: FollowedRegistry, error: unknown) => void;
  } = {},
): Following {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? FOLLOW_LEASE_MS;
  const states = new Map<FollowedRegistry, LocalFollowState>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  const leaseUntil = (at: Date) => new Date(at.getTime() + leaseMs).toISOString();

  const follow = (follower: Follower) => {
    const registry = follower.registry;
    const state: LocalFollowState = { following_here: false, last_pass_at: null, last_error: null };
    states.set(registry, state);
    const everyMs = options.everyMs?.[registry] ?? FOLLOW_PASS_MS[registry];

    const pass = async () => {
      let wait = everyMs;
      try {
        const now = deps.clock.now();
        state.following_here = await deps.store.leaseFollow(registry, holder, now.toISOString(), leaseUntil(now));
        if (state.following_here) {
          const summary = await followPass(
            follower,
            deps.store,
            async (batch) => {
              if (stopped) throw new Stopping();
              const at = deps.clock.now();
              // Renewed before each batch: a process that lost its lease (paused past it) stops
              // here, and the batch is left to the holder, which resumes from the same cursor.
              if (!(await deps.store.leaseFollow(registry, holder, at.toISOString(), leaseUntil(at))))
                throw new Error(`${registry}: another process took over following it`);
              await holdBatch(deps.store, batch, at);
            },
            () => deps.clock.now(),
          );
          state.last_pass_at = deps.clock.now().toISOString();
          state.last_error = null;
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
