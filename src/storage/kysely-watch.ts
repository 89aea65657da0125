import { sql, type Kysely } from 'kysely';
import { componentOwner, componentSearchKeys, isComponentKind, type ComponentRef } from '../domain/component.js';
import { nativeIdsByKind } from '../domain/component.js';
import type { Database } from './schema.js';
import type { ScheduledClaim } from './follow-records.js';
import type { CachedAnswer, QueueFigures, WatchEntry } from './watch-records.js';
import { READ_PRIORITY, READ_REASONS, type ReadReason } from '../domain/follow-schedule.js';
import { unfollow } from './kysely-follow-schedule.js';

/**
 * The observer's bookkeeping (watch list, claims, conditional-request cache): queries shared by
 * both adapters. None of it is part of the record; the log never depends on it.
 */

type Db = Kysely<Database>;

/**
 * Instants are compared as text, so every one is stored in the single form toISOString gives
 * (`2025-01-01T00:00:00.000Z`); `…00Z` would sort after `…00.000Z` and never fall due.
 */
function instant(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${value}`);
  return date.toISOString();
}

export async function watchAdd(db: Db, refs: ComponentRef[], at: string): Promise<number> {
  if (refs.length === 0) return 0;
  const now = instant(at);
  return db.transaction().execute(async (trx) => {
    let added = 0;
    for (const ref of refs) {
      await trx
        .insertInto('components')
        .values({
          kind: ref.kind,
          native_id: ref.id,
          owner: componentOwner(ref),
          ...componentSearchKeys(ref),
        })
        .onConflict((oc) => oc.columns(['kind', 'native_id']).doNothing())
        .execute();
      const { id } = await trx
        .selectFrom('components')
        .select('id')
        .where('kind', '=', ref.kind)
        .where('native_id', '=', ref.id)
        .executeTakeFirstOrThrow();
      const result = await trx
        .insertInto('watch')
        .values({ component_id: id, added_at: now, due_at: now, claimed_until: null })
        .onConflict((oc) => oc.column('component_id').doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0);
      // A package a follower held becomes the operator's: read daily from now on, like any watched one.
      if (await unfollow(trx, id, ref.kind)) {
        await trx
          .updateTable('watch')
          .set({
            followed: 0,
            reason: null,
            priority: 0,
            due_at: sql<string>`CASE WHEN due_at < ${now} THEN due_at ELSE ${now} END`,
          })
          .where('component_id', '=', id)
          .execute();
        added++;
      }
    }
    return added;
  });
}

export async function watchRemove(db: Db, ref: ComponentRef): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const component = await trx
      .selectFrom('components')
      .select('id')
      .where('kind', '=', ref.kind)
      .where('native_id', '=', ref.id)
      .executeTakeFirst();
    if (!component) return false;
    // A followed package leaves its registry's counts (a later listing holds it again).
    await unfollow(trx, Number(component.id), ref.kind);
    const result = await trx.deleteFrom('watch').where('component_id', '=', component.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

export async function watchList(db: Db): Promise<WatchEntry[]> {
  const rows = await db
    .selectFrom('watch')
    .innerJoin('components', 'components.id', 'watch.component_id')
    .select(['components.kind', 'components.native_id', 'watch.added_at', 'watch.due_at', 'watch.claimed_until'])
    .select('watch.discovered')
    .select((eb) =>
      eb
        .exists(
          eb.selectFrom('series').select('series.component_id').whereRef('series.component_id', '=', 'components.id'),
        )
        .as('held'),
    )
    .orderBy('components.kind')
    .orderBy('components.native_id')
    .execute();
  return rows.map((r) => ({
    component: toRef(r.kind, r.native_id),
    added_at: r.added_at,
    due_at: r.due_at,
    claimed_until: r.claimed_until,
    discovered: Number(r.discovered) === 1,
    unconfirmed: Number(r.discovered) === 1 && !r.held,
  }));
}

/**
 * The watch list counted in one pass (and the day's discovery count): a scan of `watch`, which a
 * scrape every 15 s or more can afford at millions of rows; nothing here is on a request's path.
 */
export async function queueFigures(db: Db, at: string): Promise<QueueFigures> {
  const now = instant(at);
  const row = await db
    .selectFrom('watch')
    .select([
      sql<number | string>`count(*)`.as('watched'),
      sql<
        number | string
      >`count(CASE WHEN due_at <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now}) THEN 1 END)`.as('due'),
      sql<number | string>`count(CASE WHEN claimed_until >= ${now} THEN 1 END)`.as('claimed'),
      sql<
        number | string
      >`count(CASE WHEN discovered = 1 AND NOT EXISTS (SELECT 1 FROM series s WHERE s.component_id = watch.component_id) THEN 1 END)`.as(
        'unconfirmed',
      ),
    ])
    .executeTakeFirstOrThrow();
  const day = await db
    .selectFrom('discovery_days')
    .select('queued')
    .where('day', '=', now.slice(0, 10))
    .executeTakeFirst();
  return {
    watched: Number(row.watched),
    due: Number(row.due),
    claimed: Number(row.claimed),
    unconfirmed: Number(row.unconfirmed),
    discoveredToday: Number(day?.queued ?? 0),
  };
}

export async function claimDue(
  db: Db,
  backend: 'sqlite' | 'postgres',
  at: string,
  limit: number,
  until: string,
): Promise<ComponentRef[]> {
  return (await claimScheduled(db, backend, at, limit, until)).map((c) => c.component);
}

/** Claim priorities, first to last (READ_PRIORITY: daily, event and threshold; backfill; sweep). */
const PRIORITIES = [...new Set(Object.values(READ_PRIORITY))].sort((a, b) => a - b);

/**
 * Due components in priority order, oldest due first within each (returned by kind and id). Each priority is a range read
 * of the watch_claim index (priority, due_at): `priority = p AND due_at <= now`, in index order,
 * stopping at the limit, so a claim costs the same at 10 M rows as at 100 (claimed rows still in
 * the range are stepped over: at most the leases running).
 */
export async function claimScheduled(
  db: Db,
  backend: 'sqlite' | 'postgres',
  at: string,
  limit: number,
  until: string,
): Promise<ScheduledClaim[]> {
  const now = instant(at);
  const leaseUntil = instant(until);
  return db.transaction().execute(async (trx) => {
    // SQLite: a write first takes the database's write lock at the start, so a claimer waits its
    // turn instead of failing when it tries to upgrade a read snapshot another claimer has moved on.
    if (backend === 'sqlite')
      await trx
        .updateTable('watch')
        .set({ due_at: sql`due_at` })
        .where(sql<boolean>`0 = 1`)
        .execute();
    const due: { component_id: number; reason: string | null }[] = [];
    for (const priority of PRIORITIES) {
      if (due.length >= limit) break;
      // PostgreSQL: SKIP LOCKED lets several workers claim side by side without waiting on each
      // other or taking the same row. SQLite: the transaction's write lock serialises claimers.
      const rows = await trx
        .selectFrom('watch')
        .select(['component_id', 'reason'])
        .where('priority', '=', priority)
        .where('due_at', '<=', now)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('due_at')
        .limit(limit - due.length)
        .$if(backend === 'postgres', (qb) => qb.forUpdate().skipLocked())
        .execute();
      due.push(...rows.map((r) => ({ component_id: Number(r.component_id), reason: r.reason })));
    }
    if (due.length === 0) return [];
    const ids = due.map((d) => d.component_id);
    // A hint noted during an earlier claim was for the read now starting.
    await trx
      .updateTable('watch')
      .set({ claimed_until: leaseUntil, event_on: null })
      .where('component_id', 'in', ids)
      .execute();
    const reasons = new Map(due.map((d) => [d.component_id, d.reason]));
    // Priority picks which components a claim takes; within it, reads (and so leaves) go by kind and id.
    const rows = await trx
      .selectFrom('components')
      .select(['id', 'kind', 'native_id'])
      .where('id', 'in', ids)
      .orderBy('kind')
      .orderBy('native_id')
      .execute();
    return rows.map((r) => {
      const reason = reasons.get(Number(r.id)) ?? null;
      return { component: toRef(r.kind, r.native_id), reason: isReadReason(reason) ? reason : null };
    });
  });
}

function isReadReason(s: string | null): s is ReadReason {
  return s !== null && (READ_REASONS as readonly string[]).includes(s);
}

export function releaseWatch(db: Db, refs: ComponentRef[], nextDue: string): Promise<void> {
  return updateWatched(db, refs, { due_at: instant(nextDue), claimed_until: null }, false);
}

export function extendClaims(db: Db, refs: ComponentRef[], until: string): Promise<void> {
  // Only rows still claimed: a released claim (claimed_until null) is not claimed again.
  return updateWatched(db, refs, { claimed_until: instant(until) }, true);
}

/** Sets `values` on the watch rows of `refs`, 200 components a statement. */
async function updateWatched(
  db: Db,
  refs: ComponentRef[],
  values: Partial<Pick<Database['watch'], 'due_at' | 'claimed_until'>>,
  onlyClaimed: boolean,
): Promise<void> {
  for (let i = 0; i < refs.length; i += 200) {
    const chunk = refs.slice(i, i + 200);
    await db
      .updateTable('watch')
      .set(values)
      .$if(onlyClaimed, (qb) => qb.where('claimed_until', 'is not', null))
      .where('component_id', 'in', (eb) =>
        eb
          .selectFrom('components')
          .select('id')
          // `kind = ? AND native_id IN (…)` per kind, which the (kind, native_id) index answers.
          .where((w) =>
            w.or(
              [...nativeIdsByKind(chunk)].map(([kind, ids]) =>
                w.and([w('kind', '=', kind), w('native_id', 'in', ids)]),
              ),
            ),
          ),
      )
      .execute();
  }
}

export async function cacheGet(db: Db, url: string): Promise<CachedAnswer | null> {
  const row = await db.selectFrom('upstream_cache').selectAll().where('url', '=', url).executeTakeFirst();
  return row
    ? { etag: row.etag, last_modified: row.last_modified, facts: JSON.parse(row.facts) as CachedAnswer['facts'] }
    : null;
}

export async function cacheSet(db: Db, url: string, entry: CachedAnswer): Promise<void> {
  const values = {
    etag: entry.etag,
    last_modified: entry.last_modified,
    facts: JSON.stringify(entry.facts),
    stored_at: new Date().toISOString(),
  };
  await db
    .insertInto('upstream_cache')
    .values({ url, ...values })
    .onConflict((oc) => oc.column('url').doUpdateSet(values))
    .execute();
}

function toRef(kind: string, id: string): ComponentRef {
  if (!isComponentKind(kind)) throw new Error(`the store holds a component of unknown kind ${kind}`);
  return { kind, id };
}
