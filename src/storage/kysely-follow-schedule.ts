/**
 * The schedule of followed packages (DESIGN §8a): the watch rows a follower's batches hold, when
 * each is next due and why, the reads made per day by reason, each registry's backfill progress,
 * and the lease that lets one process of a deployment follow a registry. Queries shared by both
 * adapters. Operator bookkeeping, not part of the record: a hint never becomes an observation.
 */
import { sql, type Kysely } from 'kysely';
import { addDays } from '../domain/calendar.js';
import { componentOwner, componentSearchKeys, type ComponentRef } from '../domain/component.js';
import { dueAt, READ_PRIORITY, READ_REASONS, type ReadReason } from '../domain/follow-schedule.js';
import { nativeIdsByKind } from '../domain/component.js';
import type { Database } from './schema.js';
import type {
  FollowedRead,
  FollowFigures,
  FollowReadCount,
  HeldHint,
  HeldListing,
  HoldOptions,
  HoldOutcome,
} from './follow-records.js';

/** The tables' shapes, kept beside their only queries (schema.ts holds the record's tables). */
type FollowTables = {
  follow_reads: { day: string; registry: string; reason: string; reads: number };
  follow_counts: { registry: string; listed: number; read_once: number };
  follow_leases: { registry: string; holder: string; until: string };
};

type Db = Kysely<Database>;

/** Rows a statement: a listing page of 10,000 names is twenty statements, not 10,000. */
const CHUNK = 500;

const startOf = (date: string) => `${date}T00:00:00.000Z`;
const keyOf = (kind: string, id: string) => `${kind}:${id}`;

function instant(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${value}`);
  return date.toISOString();
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** The components' ids by `kind:id`; with `make`, missing components are added first. */
async function componentIds(trx: Db, refs: ComponentRef[], make: boolean): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunks(refs)) {
    if (make)
      await trx
        .insertInto('components')
        .values(
          chunk.map((r) => ({ kind: r.kind, native_id: r.id, owner: componentOwner(r), ...componentSearchKeys(r) })),
        )
        .onConflict((oc) => oc.columns(['kind', 'native_id']).doNothing())
        .execute();
    const rows = await trx
      .selectFrom('components')
      .select(['id', 'kind', 'native_id'])
      .where((eb) =>
        eb.or(
          [...nativeIdsByKind(chunk)].map(([kind, names]) =>
            eb.and([eb('kind', '=', kind), eb('native_id', 'in', names)]),
          ),
        ),
      )
      .execute();
    for (const r of rows) ids.set(keyOf(r.kind, r.native_id), Number(r.id));
  }
  return ids;
}

/** Adds to a registry's counts (negative to take away). */
async function addCounts(trx: Db, registry: string, listed: number, readOnce: number): Promise<void> {
  if (listed === 0 && readOnce === 0) return;
  await trx
    .withTables<FollowTables>()
    .insertInto('follow_counts')
    .values({ registry, listed, read_once: readOnce })
    .onConflict((oc) =>
      oc.column('registry').doUpdateSet({
        listed: sql<number>`follow_counts.listed + ${listed}`,
        read_once: sql<number>`follow_counts.read_once + ${readOnce}`,
      }),
    )
    .execute();
}

function tally<K>(counts: Map<K, number>, key: K, n = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

export async function holdFollowed(
  db: Db,
  listed: HeldListing[],
  given: HeldHint[],
  at: string,
  options: HoldOptions = {},
): Promise<HoldOutcome> {
  const now = instant(at);
  const outcome: HoldOutcome = { added: 0, hinted: 0, already_read: 0 };
  if (listed.length + given.length === 0) return outcome;
  return db.transaction().execute(async (trx) => {
    const ids = await componentIds(trx, [...listed.map((l) => l.component), ...given.map((h) => h.component)], true);
    // Compared before the listing moves the markers on: what differs from what was held changed in the break.
    const hints = options.changedSinceHeld ? [...given, ...(await listingChanges(trx, listed, ids, now))] : given;
    const addedByKind = new Map<string, number>();
    // A name listed twice in a page keeps its last marker.
    const byName = new Map(listed.map((l) => [keyOf(l.component.kind, l.component.id), l]));
    const byKind = [...nativeIdsByKind([...byName.values()].map((l) => l.component)).keys()].map((kind) =>
      [...byName.values()].filter((l) => l.component.kind === kind),
    );
    for (const chunk of byKind.flatMap((ofKind) => chunks(ofKind))) {
      const rows = chunk.map((l) => ({
        component_id: ids.get(keyOf(l.component.kind, l.component.id))!,
        added_at: now,
        due_at: now,
        claimed_until: null,
        followed: 1,
        reason: 'backfill',
        priority: READ_PRIORITY.backfill,
        marker: l.marker,
      }));
      // Never held: due now for the backfill. Held already (a re-listing after a fault, say): its
      // schedule stays as it is, only the marker moves on.
      const inserted = await trx
        .insertInto('watch')
        .values(rows)
        .onConflict((oc) => oc.column('component_id').doNothing())
        .executeTakeFirst();
      const added = Number(inserted.numInsertedOrUpdatedRows ?? 0);
      outcome.added += added;
      if (added > 0) tally(addedByKind, chunk[0]!.component.kind, added);
      const marked = rows.filter((r) => r.marker !== null);
      if (marked.length > 0)
        await trx
          .insertInto('watch')
          .values(marked)
          .onConflict((oc) => oc.column('component_id').doUpdateSet({ marker: (eb) => eb.ref('excluded.marker') }))
          .execute();
    }

    const hinted = new Map<number, { ref: ComponentRef; hints: HeldHint[] }>();
    for (const h of hints) {
      const id = ids.get(keyOf(h.component.kind, h.component.id))!;
      const entry = hinted.get(id);
      if (entry) entry.hints.push(h);
      else hinted.set(id, { ref: h.component, hints: [h] });
    }
    for (const chunk of chunks([...hinted.keys()])) {
      const held = new Map(
        (
          await trx
            .selectFrom('watch')
            .select(['component_id', 'followed', 'marker', 'read_marker', 'due_at', 'claimed_until', 'event_on'])
            .where('component_id', 'in', chunk)
            .execute()
        ).map((r) => [Number(r.component_id), r]),
      );
      for (const id of chunk) {
        const { ref, hints: its } = hinted.get(id)!;
        const lastMarker = its.findLast((h) => h.marker !== null)?.marker ?? null;
        const row = held.get(id);
        if (!row) {
          // A package the follower had not listed yet (a new one): due on its change day.
          await trx
            .insertInto('watch')
            .values({
              component_id: id,
              added_at: now,
              due_at: startOf(earliest(its)),
              claimed_until: null,
              followed: 1,
              reason: 'event',
              priority: READ_PRIORITY.event,
              marker: lastMarker,
            })
            .execute();
          outcome.added++;
          tally(addedByKind, ref.kind);
          continue;
        }
        const marker = lastMarker ?? row.marker;
        // Read daily already (an operator's or discovery's): the next daily read covers the change.
        if (Number(row.followed) !== 1) {
          if (marker !== row.marker)
            await trx.updateTable('watch').set({ marker }).where('component_id', '=', id).execute();
          continue;
        }
        // A hint repeating the marker the package had when last read was read already; a removal,
        // or a feed that gives no marker, is always read.
        const fresh = its.filter((h) => h.removal || h.marker === null || h.marker !== row.read_marker);
        if (fresh.length === 0) {
          outcome.already_read += its.length;
          continue;
        }
        const on = earliest(fresh);
        const due = startOf(on) < row.due_at ? startOf(on) : row.due_at;
        // Claimed now: the read under way may have missed this change; its release keeps it due.
        const claimed = row.claimed_until !== null && row.claimed_until >= now;
        const eventOn = claimed && (row.event_on === null || on < row.event_on) ? on : row.event_on;
        await trx
          .updateTable('watch')
          .set({ due_at: due, reason: 'event', priority: READ_PRIORITY.event, marker, event_on: eventOn })
          .where('component_id', '=', id)
          .execute();
        outcome.hinted++;
      }
    }
    for (const [kind, n] of addedByKind) await addCounts(trx, kind, n, 0);
    return outcome;
  });
}

/**
 * A listing after a break in the feed (a resync, a rebuild, a regression) against what was held:
 * a package held with another marker than the one listed (its checksum, rev, serial or version),
 * or not held at all, changed while the feed could not say so. Each is a hint dated the day it was
 * listed, so it is read as an event rather than left to the sweep. A package held with no marker
 * (a listing without one, Packagist's names) can only differ by being new.
 */
async function listingChanges(
  trx: Db,
  listed: HeldListing[],
  ids: Map<string, number>,
  now: string,
): Promise<HeldHint[]> {
  const byId = new Map(listed.map((l) => [ids.get(keyOf(l.component.kind, l.component.id))!, l]));
  const held = new Map<number, string | null>();
  for (const chunk of chunks([...byId.keys()]))
    for (const r of await trx
      .selectFrom('watch')
      .select(['component_id', 'marker'])
      .where('component_id', 'in', chunk)
      .execute())
      held.set(Number(r.component_id), r.marker);
  const changedOn = now.slice(0, 10);
  const hints: HeldHint[] = [];
  for (const [id, l] of byId) {
    const was = held.get(id);
    const differs = was === undefined || (was !== null && l.marker !== null && was !== l.marker);
    if (differs) hints.push({ component: l.component, changed_on: changedOn, marker: l.marker, removal: false });
  }
  return hints;
}

function earliest(hints: HeldHint[]): string {
  return hints.reduce((min, h) => (h.changed_on < min ? h.changed_on : min), hints[0]!.changed_on);
}

export async function rescheduleFollowed(db: Db, reads: FollowedRead[], readOn: string): Promise<void> {
  if (reads.length === 0) return;
  const tomorrow = startOf(addDays(readOn, 1));
  await db.transaction().execute(async (trx) => {
    const ids = await componentIds(
      trx,
      reads.map((r) => r.component),
      false,
    );
    const neverRead = new Set<number>();
    for (const chunk of chunks([...ids.values()])) {
      const rows = await trx
        .selectFrom('watch')
        .select('component_id')
        .where('component_id', 'in', chunk)
        .where('followed', '=', 1)
        .where('last_read_on', 'is', null)
        .execute();
      for (const r of rows) neverRead.add(Number(r.component_id));
    }
    const firstReads = new Map<string, number>();
    const counted = new Map<string, number>();
    for (const r of reads) {
      const id = ids.get(keyOf(r.component.kind, r.component.id));
      if (id === undefined) continue;
      tally(counted, `${r.component.kind}\n${r.reason}`);
      if (r.succeeded && neverRead.has(id)) tally(firstReads, r.component.kind);
      // A hint that came during the read (event_on) keeps the package due for the event: the
      // record holds today's reading, so the next can be tomorrow's.
      await trx
        .updateTable('watch')
        .set({
          claimed_until: null,
          due_at: sql<string>`CASE WHEN event_on IS NOT NULL THEN ${tomorrow} ELSE ${dueAt(r.next_on, r.next_reason)} END`,
          reason: sql<string>`CASE WHEN event_on IS NOT NULL THEN 'event' ELSE ${r.next_reason} END`,
          // Literals: PostgreSQL would type two parameters here as text.
          priority: sql<number>`CASE WHEN event_on IS NOT NULL THEN ${sql.lit(READ_PRIORITY.event)} ELSE ${sql.lit(READ_PRIORITY[r.next_reason])} END`,
          event_on: null,
          // A failed read settles nothing: the marker stays unread and the backfill unmoved.
          ...(r.succeeded ? { read_marker: sql<string | null>`marker`, last_read_on: readOn } : {}),
        })
        .where('component_id', '=', id)
        .where('followed', '=', 1)
        .execute();
    }
    for (const [key, n] of counted) {
      const [registry, reason] = key.split('\n') as [string, string];
      await trx
        .withTables<FollowTables>()
        .insertInto('follow_reads')
        .values({ day: readOn, registry, reason, reads: n })
        .onConflict((oc) =>
          oc.columns(['day', 'registry', 'reason']).doUpdateSet({ reads: sql<number>`follow_reads.reads + ${n}` }),
        )
        .execute();
    }
    for (const [kind, n] of firstReads) await addCounts(trx, kind, 0, n);
  });
}

/**
 * A followed package leaves the follower's hold (an operator watches it, or removes it): the
 * registry's counts lose it. Called inside the transaction that changes its row.
 */
export async function unfollow(trx: Db, componentId: number, kind: string): Promise<boolean> {
  const row = await trx
    .selectFrom('watch')
    .select(['followed', 'last_read_on'])
    .where('component_id', '=', componentId)
    .executeTakeFirst();
  if (!row || Number(row.followed) !== 1) return false;
  await addCounts(trx, kind, -1, row.last_read_on === null ? 0 : -1);
  return true;
}

export async function followFigures(db: Db, registry: string, day: string): Promise<FollowFigures> {
  const d = db.withTables<FollowTables>();
  const counts = await d.selectFrom('follow_counts').selectAll().where('registry', '=', registry).executeTakeFirst();
  const reads = await d
    .selectFrom('follow_reads')
    .select(['reason', 'reads'])
    .where('day', '=', day)
    .where('registry', '=', registry)
    .execute();
  const today = Object.fromEntries(READ_REASONS.map((r) => [r, 0])) as Record<ReadReason, number>;
  for (const r of reads)
    if ((READ_REASONS as readonly string[]).includes(r.reason)) today[r.reason as ReadReason] = Number(r.reads);
  return { listed: Number(counts?.listed ?? 0), read_once: Number(counts?.read_once ?? 0), reads_today: today };
}

export async function followReads(db: Db, fromDay: string, toDay: string): Promise<FollowReadCount[]> {
  const rows = await db
    .withTables<FollowTables>()
    .selectFrom('follow_reads')
    .selectAll()
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .orderBy('registry')
    .orderBy('reason')
    .execute();
  return rows.map((r) => ({
    day: r.day,
    registry: r.registry,
    reason: r.reason as ReadReason,
    reads: Number(r.reads),
  }));
}

export async function leaseFollow(
  db: Db,
  registry: string,
  holder: string,
  at: string,
  until: string,
): Promise<boolean> {
  const now = instant(at);
  const result = await db
    .withTables<FollowTables>()
    .insertInto('follow_leases')
    .values({ registry, holder, until: instant(until) })
    .onConflict((oc) =>
      oc
        .column('registry')
        .doUpdateSet({ holder, until: instant(until) })
        .where((eb) => eb.or([eb('follow_leases.until', '<', now), eb('follow_leases.holder', '=', holder)])),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function releaseFollowLease(db: Db, registry: string, holder: string): Promise<void> {
  await db
    .withTables<FollowTables>()
    .deleteFrom('follow_leases')
    .where('registry', '=', registry)
    .where('holder', '=', holder)
    .execute();
}
