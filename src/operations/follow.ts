/**
 * Following whole registries (DESIGN §8a), as use cases: a follower's batch held for reading, and
 * each followed registry's health as `tended follow status` and `/healthz` say it. A feed's batch
 * only ever makes packages due; what they are is what their reads say.
 */
import { utcDateOf } from '../domain/calendar.js';
import type { ReadReason } from '../domain/follow-schedule.js';
import { COMPARABLE_LISTINGS } from '../upstreams/registries.js';
import {
  isContiguityFault,
  isRefusedFeedFault,
  type FollowBatch,
  type FollowedRegistry,
} from '../upstreams/following/follower.js';
import type { HoldOutcome } from '../storage/follow-records.js';
import type { FollowCursorRecord } from '../storage/follow-records.js';
import type { Store } from '../storage/store.js';
import type { Clock } from './deps.js';

/**
 * A follower's batch onto the watch list: listed packages held, hinted ones due on their change
 * day. A re-listing after a break in the feed (a resync, a rebuild, a regression…) is compared with
 * what was held where the listing allows (COMPARABLE_LISTINGS): a package listed otherwise than
 * held, or not held at all, changed in the break and is due as an event.
 */
export function holdBatch(store: Pick<Store, 'holdFollowed'>, batch: FollowBatch, at: Date): Promise<HoldOutcome> {
  const afterBreak =
    batch.step === 'listing' &&
    batch.relist !== null &&
    isContiguityFault(batch.relist) &&
    COMPARABLE_LISTINGS.has(batch.registry);
  return store.holdFollowed(batch.listed, batch.hints, at.toISOString(), afterBreak ? { changedSinceHeld: true } : {});
}

/**
 * A follower with no contiguous read for this long is `lagging`: passes run every one to ten
 * minutes and each commits a read, so an hour without one means its feed is away or breaking.
 */
export const LAGGING_AFTER_MS = 60 * 60_000;

/** What this process knows of its own follower that the store does not: whether it follows here, its last error. */
export interface LocalFollowState {
  /** This process holds the registry's lease (another process of the deployment may follow it instead). */
  following_here: boolean;
  last_pass_at: string | null;
  /** The last pass's error, cleared by the next pass that ends well. */
  last_error: string | null;
}

export interface FollowerStatus {
  registry: FollowedRegistry;
  /**
   * `starting`: nothing committed yet; `ok`; `lagging`: no contiguous read for LAGGING_AFTER_MS;
   * `failing`: this process's last pass ended in an error, or the follower's last fault is an
   * answer it refused (a page larger than asked for, a cursor that does not move on) and no
   * contiguous read has come since.
   */
  status: 'starting' | 'ok' | 'lagging' | 'failing';
  /** The committed cursor (the follower's own JSON), null before the first batch. */
  cursor: string | null;
  /** When a batch was last committed. */
  last_read_at: string | null;
  last_contiguous_at: string | null;
  /** Seconds since the last contiguous read (null before one): how far behind its feed the record may be. */
  lag_seconds: number | null;
  faults_seen: number;
  last_fault: FollowCursorRecord['last_fault'];
  /** Packages held for this registry, and how many of them were read at least once. */
  backfill: { listed: number; read_once: number };
  reads_today: Record<ReadReason, number>;
  local: LocalFollowState | null;
}

/** Each registry's status: a few primary-key reads of small tables (cursors, counts, today's reads), never a scan. */
export async function followStatus(
  store: Pick<Store, 'followCursor' | 'followFigures'>,
  registries: readonly FollowedRegistry[],
  clock: Clock,
  local?: (registry: FollowedRegistry) => LocalFollowState | null,
): Promise<FollowerStatus[]> {
  const now = clock.now();
  return Promise.all(
    registries.map(async (registry): Promise<FollowerStatus> => {
      const [cursor, figures] = await Promise.all([
        store.followCursor(registry),
        store.followFigures(registry, utcDateOf(now)),
      ]);
      const mine = local?.(registry) ?? null;
      const lagMs = cursor?.last_contiguous_at ? now.getTime() - Date.parse(cursor.last_contiguous_at) : null;
      const fault = cursor?.last_fault ?? null;
      const refusedSince =
        fault !== null &&
        isRefusedFeedFault(fault.kind) &&
        (!cursor?.last_contiguous_at || fault.at >= cursor.last_contiguous_at);
      const status =
        mine?.last_error != null || refusedSince
          ? 'failing'
          : cursor === null
            ? 'starting'
            : lagMs === null || lagMs > LAGGING_AFTER_MS
              ? 'lagging'
              : 'ok';
      return {
        registry,
        status,
        cursor: cursor?.cursor ?? null,
        last_read_at: cursor?.updated_at ?? null,
        last_contiguous_at: cursor?.last_contiguous_at ?? null,
        lag_seconds: lagMs === null ? null : Math.max(0, Math.round(lagMs / 1000)),
        faults_seen: cursor?.faults_seen ?? 0,
        last_fault: cursor?.last_fault ?? null,
        backfill: { listed: figures.listed, read_once: figures.read_once },
        reads_today: figures.reads_today,
        local: mine,
      };
    }),
  );
}
