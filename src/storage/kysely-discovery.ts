import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { componentOwner, componentSearchKeys, type ComponentRef } from '../domain/component.js';
import { nativeIdsByKind } from '../domain/component.js';
import type { Database } from './schema.js';
import type { QueueOptions, QueueOutcome } from './watch-records.js';

/**
 * Discovery's bookkeeping (DESIGN §3 "Discovery"): names a read queued, kept on the watch list
 * with `discovered = 1` and nothing else (no request, address, key or time of asking), and the
 * count queued per UTC day. None of it is part of the record until a read shows the name public.
 */

type Db = Kysely<Database>;

// Components per statement: well under both backends' parameter limits.
const CHUNK = 200;

const keyOf = (kind: string, id: string) => `${kind}:${id}`;

/** `(kind = ? AND native_id IN (…)) OR …` over `components`, which the (kind, native_id) index answers. */
function namedIn(refs: ComponentRef[]) {
  return (eb: ExpressionBuilder<Database, 'components'>) =>
    eb.or(
      [...nativeIdsByKind(refs)].map(([kind, ids]) =>
        eb.and([eb('components.kind', '=', kind), eb('components.native_id', 'in', ids)]),
      ),
    );
}

/** The component holds no observation: no read has shown it public yet. */
function noObservation(eb: ExpressionBuilder<Database, 'components' | 'watch'>) {
  return eb.not(
    eb.exists(
      eb.selectFrom('series').select('series.component_id').whereRef('series.component_id', '=', 'components.id'),
    ),
  );
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * The names queued on `day` so far, read inside the transaction that will raise it. The counter
 * row is written first: on PostgreSQL its row lock orders concurrent requests; on SQLite that write
 * takes the database's write lock, which does the same. So processes sharing a database never pass
 * the daily bound between them.
 */
async function lockedDayCount(trx: Db, backend: 'sqlite' | 'postgres', day: string): Promise<number> {
  await trx
    .insertInto('discovery_days')
    .values({ day, queued: 0 })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const counter = await trx
    .selectFrom('discovery_days')
    .select('queued')
    .where('day', '=', day)
    .$if(backend === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirstOrThrow();
  return Number(counter.queued);
}

async function raiseDayCount(trx: Db, day: string, added: number): Promise<void> {
  if (added > 0)
    await trx
      .updateTable('discovery_days')
      .set({ queued: sql`queued + ${added}` })
      .where('day', '=', day)
      .execute();
}

/**
 * Which of `refs` are on the watch list, and (when `options.add`) puts the others on it as
 * discovered, due at `at`, as far as the day's bound allows. The day's count is read and raised in
 * the same transaction, so processes sharing a database never pass the bound between them. With
 * `options.countAsked` every asked name takes room and each goes the same way, through the
 * transaction, so the outcome does not depend on what was listed before.
 */
export async function queueDiscovered(
  db: Db,
  backend: 'sqlite' | 'postgres',
  refs: ComponentRef[],
  at: string,
  options: QueueOptions,
): Promise<QueueOutcome> {
  const unique = [...new Map(refs.map((r) => [keyOf(r.kind, r.id), r])).values()];
  const outcome: QueueOutcome = { listed: new Set(), added: 0, over_cap: 0 };
  if (unique.length === 0) return outcome;
  const listedIn = async (trx: Db) => {
    for (const chunk of chunks(unique)) {
      const rows = await trx
        .selectFrom('components')
        .innerJoin('watch', 'watch.component_id', 'components.id')
        .select(['components.kind', 'components.native_id'])
        .where(namedIn(chunk))
        .execute();
      for (const r of rows) outcome.listed.add(keyOf(r.kind, r.native_id));
    }
  };
  const day = at.slice(0, 10);
  if (options.countAsked && options.add)
    return db.transaction().execute(async (trx) => {
      const room = Math.max(0, options.dailyCap - (await lockedDayCount(trx, backend, day)));
      const taken = unique.slice(0, room);
      outcome.over_cap = unique.length - taken.length;
      outcome.added = await addToWatch(trx, taken, at);
      for (const r of taken) outcome.listed.add(keyOf(r.kind, r.id));
      await raiseDayCount(trx, day, taken.length);
      return outcome;
    });
  // Looked up first without a transaction: a name read again and again (a popular unheld
  // repository) is already listed, and its reads should not queue behind the write lock.
  await listedIn(db);
  if (!options.add || outcome.listed.size === unique.length) return outcome;
  outcome.listed.clear();
  return db.transaction().execute(async (trx) => {
    const counted = await lockedDayCount(trx, backend, day);
    await listedIn(trx);
    const fresh = unique.filter((r) => !outcome.listed.has(keyOf(r.kind, r.id)));
    const room = Math.max(0, options.dailyCap - counted);
    const taken = fresh.slice(0, room);
    outcome.over_cap = fresh.length - taken.length;
    outcome.added = await addToWatch(trx, taken, at);
    for (const r of taken) outcome.listed.add(keyOf(r.kind, r.id));
    await raiseDayCount(trx, day, outcome.added);
    return outcome;
  });
}

/** Puts `refs` on the watch list as discovered, due at `at` (a name listed already stays as it was); answers how many were added. */
async function addToWatch(trx: Db, refs: ComponentRef[], at: string): Promise<number> {
  let added = 0;
  for (const chunk of chunks(refs)) {
    await trx
      .insertInto('components')
      .values(
        chunk.map((r) => ({
          kind: r.kind,
          native_id: r.id,
          owner: componentOwner(r),
          ...componentSearchKeys(r),
        })),
      )
      .onConflict((oc) => oc.columns(['kind', 'native_id']).doNothing())
      .execute();
    const ids = await trx.selectFrom('components').select('id').where(namedIn(chunk)).execute();
    const inserted = await trx
      .insertInto('watch')
      .values(ids.map(({ id }) => ({ component_id: id, added_at: at, due_at: at, claimed_until: null, discovered: 1 })))
      .onConflict((oc) => oc.column('component_id').doNothing())
      .executeTakeFirst();
    added += Number(inserted.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

/**
 * Which of `refs` a read queued and no read has shown public yet (the record holds no observation
 * of them), each with when it was queued: the observer forgets those unconfirmed too long.
 */
export async function unconfirmedDiscoveries(db: Db, refs: ComponentRef[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const chunk of chunks(refs)) {
    const rows = await db
      .selectFrom('components')
      .innerJoin('watch', 'watch.component_id', 'components.id')
      .select(['components.kind', 'components.native_id', 'watch.added_at'])
      .where(namedIn(chunk))
      .where('watch.discovered', '=', 1)
      .where(noObservation)
      .execute();
    for (const r of rows) found.set(keyOf(r.kind, r.native_id), r.added_at);
  }
  return found;
}

/**
 * Forgets discovered names their upstream does not show (a not-found on the first read): the watch
 * row, the component row and the conditional-request cache of `urls` go, in one transaction. A
 * name the record holds anything of (an observation, a census) is never dropped.
 */
export async function dropDiscovered(db: Db, refs: ComponentRef[], urls: string[]): Promise<number> {
  if (refs.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    let dropped = 0;
    for (const chunk of chunks(refs)) {
      const ids = (
        await trx
          .selectFrom('components')
          .innerJoin('watch', 'watch.component_id', 'components.id')
          .select('components.id')
          .where(namedIn(chunk))
          .where('watch.discovered', '=', 1)
          .where(noObservation)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb.selectFrom('census').select('leaf_index').whereRef('census.component_id', '=', 'components.id'),
              ),
            ),
          )
          .execute()
      ).map((r) => Number(r.id));
      if (ids.length === 0) continue;
      await trx.deleteFrom('watch').where('component_id', 'in', ids).execute();
      await trx.deleteFrom('components').where('id', 'in', ids).execute();
      dropped += ids.length;
    }
    for (const chunk of chunks(urls)) await trx.deleteFrom('upstream_cache').where('url', 'in', chunk).execute();
    return dropped;
  });
}

/**
 * Queues a GitHub owner an org read named: a pass lists its public repositories and queues those
 * (DESIGN §3 "Discovery"). Each read counts as one name against the day's bound, queued before or
 * not, so past the bound every owner is answered alike (DESIGN §8c).
 */
export async function queueOwner(
  db: Db,
  backend: 'sqlite' | 'postgres',
  owner: string,
  at: string,
  dailyCap: number,
): Promise<'queued' | 'listed' | 'over_cap'> {
  const day = at.slice(0, 10);
  return db.transaction().execute(async (trx) => {
    if ((await lockedDayCount(trx, backend, day)) >= dailyCap) return 'over_cap';
    const inserted = await trx
      .insertInto('discovered_owners')
      .values({ owner, due_at: at })
      .onConflict((oc) => oc.column('owner').doNothing())
      .executeTakeFirst();
    await raiseDayCount(trx, day, 1);
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0 ? 'listed' : 'queued';
  });
}

/** Owners due to be listed at `at`, oldest first. */
export async function dueOwners(db: Db, at: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('discovered_owners')
    .select('owner')
    .where('due_at', '<=', at)
    .orderBy('due_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.owner);
}

/** An owner listed (or found not to exist): forgotten. With `retryAt`, its listing failed: due again then. */
export async function finishOwner(db: Db, owner: string, retryAt: string | null): Promise<void> {
  if (retryAt === null) await db.deleteFrom('discovered_owners').where('owner', '=', owner).execute();
  else await db.updateTable('discovered_owners').set({ due_at: retryAt }).where('owner', '=', owner).execute();
}
