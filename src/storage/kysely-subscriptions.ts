import { sql, type Kysely, type Transaction } from 'kysely';
import type { ComponentKind } from '../domain/component.js';
import type { AssertedState } from '../domain/state.js';
import { changeTargets, type SubscriptionFilter } from '../domain/subscription.js';
import type { Database } from './schema.js';
import type { StateChange } from './state-change.js';
import type {
  ClaimedDelivery,
  DeliveryFailure,
  NewSubscription,
  SubscriptionDelivery,
  SubscriptionRecord,
} from './subscription-records.js';

/**
 * Webhook subscriptions and their outbox: queries shared by both adapters. Subscriptions are
 * subscriber bookkeeping, not part of the record; the outbox holds what the record appended.
 */

type Db = Kysely<Database>;
type Backend = 'sqlite' | 'postgres';

const TARGETS_PER_QUERY = 500;
const ROWS_PER_INSERT = 200;

/**
 * Called by appendLeaves inside its transaction, so a change and its deliveries are committed
 * together or not at all (a fault halfway leaves neither). Matching happens here rather than in a
 * dispatcher walking the change feed: a batch's changes are already in hand, and matching them is
 * one index lookup of their few targets each (component, owner, new state), costing nothing when
 * the batch changes no state and little when it does, whatever the number of subscriptions.
 */
export async function enqueueDeliveries(trx: Transaction<Database>, changes: StateChange[], at: string): Promise<void> {
  if (changes.length === 0) return;
  const byTarget = new Map<string, number[]>();
  changes.forEach((change, i) => {
    for (const target of changeTargets(change.component, change.to)) {
      const list = byTarget.get(target) ?? [];
      list.push(i);
      byTarget.set(target, list);
    }
  });
  const targets = [...byTarget.keys()];
  const matched = new Map<number, Set<string>>();
  for (let i = 0; i < targets.length; i += TARGETS_PER_QUERY) {
    const rows = await trx
      .selectFrom('subscription_targets')
      .select(['target', 'subscription_id'])
      .where('target', 'in', targets.slice(i, i + TARGETS_PER_QUERY))
      .execute();
    for (const row of rows)
      for (const change of byTarget.get(row.target)!) {
        const subs = matched.get(change) ?? new Set<string>();
        subs.add(row.subscription_id);
        matched.set(change, subs);
      }
  }
  const rows: Database['webhook_outbox'][] = [];
  for (const [i, subscriptions] of matched) {
    const c = changes[i]!;
    for (const subscription_id of subscriptions)
      rows.push({
        // Stable across retries and senders: a receiver deduplicates by it (Standard Webhooks).
        msg_id: `msg_${c.leaf_index}_${subscription_id}`,
        subscription_id,
        leaf_index: c.leaf_index,
        kind: c.component.kind,
        native_id: c.component.id,
        from_state: c.from,
        to_state: c.to,
        observation_date: c.observation_date,
        previous_date: c.previous_date,
        previous_leaf_index: c.previous_leaf_index,
        corrects: c.corrects,
        logged_at: c.logged_at,
        enqueued_at: at,
        due_at: at,
        lease_until: null,
        delivered_at: null,
        last_error: null,
      } as Database['webhook_outbox']);
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
    await trx
      .insertInto('webhook_outbox')
      .values(rows.slice(i, i + ROWS_PER_INSERT) as never)
      .execute();
}

export async function create(db: Db, backend: Backend, s: NewSubscription, maxPerKey: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Requests of one key racing past the bound would each count too early: a lock on the key
    // (PostgreSQL, transaction-scoped) or the database's write lock (SQLite) serialises them.
    if (backend === 'postgres') await sql`SELECT pg_advisory_xact_lock(hashtext(${s.key_id}))`.execute(trx);
    else await sql`UPDATE subscriptions SET key_id = key_id WHERE 0 = 1`.execute(trx);
    const held = await trx
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('key_id', '=', s.key_id)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= maxPerKey) return false;
    await trx
      .insertInto('subscriptions')
      .values({
        id: s.id,
        key_id: s.key_id,
        endpoint: s.endpoint,
        secret: s.secret,
        filter: JSON.stringify(s.filter),
        created_at: s.created_at,
        last_success_at: null,
        last_failure_at: null,
        last_failure: null,
        paused_until: null,
      })
      .execute();
    for (let i = 0; i < s.targets.length; i += ROWS_PER_INSERT)
      await trx
        .insertInto('subscription_targets')
        .values(s.targets.slice(i, i + ROWS_PER_INSERT).map((target) => ({ target, subscription_id: s.id })))
        .execute();
    return true;
  });
}

export async function read(db: Db, id: string): Promise<SubscriptionRecord | null> {
  const row = await db
    .selectFrom('subscriptions')
    .selectAll()
    .select((eb) =>
      eb
        .selectFrom('webhook_outbox')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('webhook_outbox.subscription_id', '=', 'subscriptions.id')
        .where('webhook_outbox.due_at', 'is not', null)
        .as('pending'),
    )
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    key_id: row.key_id,
    endpoint: row.endpoint,
    secret: row.secret,
    filter: JSON.parse(row.filter) as SubscriptionFilter,
    created_at: row.created_at,
    consecutive_failures: Number(row.consecutive_failures),
    last_success_at: row.last_success_at,
    last_failure_at: row.last_failure_at,
    last_failure: row.last_failure,
    paused_until: row.paused_until,
    pending: Number(row.pending ?? 0),
  };
}

export async function remove(db: Db, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('webhook_outbox').where('subscription_id', '=', id).execute();
    await trx.deleteFrom('subscription_targets').where('subscription_id', '=', id).execute();
    const result = await trx.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * Due rows in due order: a range read of webhook_outbox_due (delivered rows have no due_at), rows
 * under a running lease or of a paused subscription stepped over.
 */
export async function claim(db: Db, backend: Backend, now: string, limit: number, until: string) {
  return db.transaction().execute(async (trx): Promise<ClaimedDelivery[]> => {
    // SQLite: take the write lock first, so claimers queue instead of both reading the same rows.
    if (backend === 'sqlite') await sql`UPDATE webhook_outbox SET due_at = due_at WHERE 0 = 1`.execute(trx);
    const due = await trx
      .selectFrom('webhook_outbox')
      .select('msg_id')
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .where('subscription_id', 'not in', (eb) =>
        eb.selectFrom('subscriptions').select('id').where('paused_until', '>', now),
      )
      .orderBy('due_at')
      .limit(limit)
      // PostgreSQL: SKIP LOCKED lets senders claim side by side without taking the same row.
      .$if(backend === 'postgres', (qb) => qb.forUpdate().skipLocked())
      .execute();
    if (due.length === 0) return [];
    const ids = due.map((d) => d.msg_id);
    await trx.updateTable('webhook_outbox').set({ lease_until: until }).where('msg_id', 'in', ids).execute();
    const rows = await trx
      .selectFrom('webhook_outbox')
      .innerJoin('subscriptions', 'subscriptions.id', 'webhook_outbox.subscription_id')
      .selectAll('webhook_outbox')
      .select(['subscriptions.endpoint', 'subscriptions.secret'])
      .where('msg_id', 'in', ids)
      .orderBy('webhook_outbox.seq')
      .execute();
    return rows.map((r) => ({
      msg_id: r.msg_id,
      subscription_id: r.subscription_id,
      endpoint: r.endpoint,
      secret: r.secret,
      change: changeOf(r),
      attempts: Number(r.attempts),
      lease_until: until,
    }));
  });
}

/**
 * Retires deliveries that were answered 2xx, in one transaction: a step's successes cost a few
 * statements, not a transaction each (a hot subscription's row would otherwise serialise them).
 * Rows whose lease is no longer the one they were claimed under (it lapsed and another sender took
 * them) are left to that sender.
 */
export async function succeeded(db: Db, done: ClaimedDelivery[], at: string): Promise<void> {
  if (done.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const byLease = new Map<string, ClaimedDelivery[]>();
    for (const d of done) byLease.set(d.lease_until, [...(byLease.get(d.lease_until) ?? []), d]);
    const retired = new Set<string>();
    for (const [lease, list] of byLease) {
      const rows = await trx
        .updateTable('webhook_outbox')
        .set({ due_at: null, lease_until: null, delivered_at: at, attempts: sql`attempts + 1`, last_error: null })
        .where(
          'msg_id',
          'in',
          list.map((d) => d.msg_id),
        )
        .where('lease_until', '=', lease)
        .returning('subscription_id')
        .execute();
      for (const row of rows) retired.add(row.subscription_id);
    }
    if (retired.size === 0) return;
    await trx
      .updateTable('subscriptions')
      .set({ consecutive_failures: 0, last_success_at: at, paused_until: null })
      .where('id', 'in', [...retired].sort())
      .execute();
  });
}

export async function failed(db: Db, d: ClaimedDelivery, f: DeliveryFailure): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const noted = await trx
      .updateTable('webhook_outbox')
      .set({ due_at: f.retry_at, lease_until: null, attempts: sql`attempts + 1`, last_error: f.reason })
      .where('msg_id', '=', d.msg_id)
      .where('lease_until', '=', d.lease_until)
      .executeTakeFirst();
    if (Number(noted.numUpdatedRows) === 0) return;
    await trx
      .updateTable('subscriptions')
      .set({
        consecutive_failures: sql`consecutive_failures + 1`,
        last_failure_at: f.at,
        last_failure: f.reason,
        paused_until: sql`CASE WHEN consecutive_failures + 1 >= ${f.circuit_after} THEN ${f.paused_until} ELSE paused_until END`,
      })
      .where('id', '=', d.subscription_id)
      .execute();
  });
}

/** Deletes up to `limit` rows delivered before `before`, oldest first; returns how many. */
export async function prune(db: Db, before: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_outbox')
    .where('seq', 'in', (eb) =>
      eb
        .selectFrom('webhook_outbox')
        .select('seq')
        .where('delivered_at', '<', before)
        .orderBy('delivered_at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function feed(db: Db, id: string, afterSeq: number, limit: number): Promise<SubscriptionDelivery[]> {
  const rows = await db
    .selectFrom('webhook_outbox')
    .selectAll()
    .where('subscription_id', '=', id)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    msg_id: r.msg_id,
    change: changeOf(r),
    enqueued_at: r.enqueued_at,
    delivered_at: r.delivered_at,
    attempts: Number(r.attempts),
  }));
}

function changeOf(r: Omit<Database['webhook_outbox'], 'seq' | 'attempts'>): StateChange {
  return {
    component: { kind: r.kind as ComponentKind, id: r.native_id },
    from: r.from_state as AssertedState,
    to: r.to_state as AssertedState,
    observation_date: r.observation_date,
    previous_date: r.previous_date,
    previous_leaf_index: Number(r.previous_leaf_index),
    leaf_index: Number(r.leaf_index),
    corrects: r.corrects === null ? null : Number(r.corrects),
    logged_at: r.logged_at,
  };
}
