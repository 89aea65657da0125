import { sql, type Transaction } from 'kysely';
import { componentOwner, componentSearchKeys, type ComponentRef } from '../domain/component.js';
import { nativeIdsByKind } from '../domain/component.js';
import type { Database } from './schema.js';

/** Ids, rows or keys asked of the database in one statement: far below either backend's parameter limit. */
export const IDS_PER_QUERY = 500;

export function componentKey(ref: ComponentRef): string {
  return `${ref.kind}:${ref.id}`;
}

/** Rows a PostgreSQL statement takes as one array per column (unnest): a handful of parameters. */
const ROWS_PER_UNNEST = 5_000;

/**
 * The id of every component `refs` names, registering the new ones: `kind:id` → id. On
 * PostgreSQL a batch of thousands is one statement when every component is known (a day's
 * re-reads) and two when some are new: the names go in as arrays, not a round trip per 500.
 */
export async function componentIdsOf(
  trx: Transaction<Database>,
  refs: ComponentRef[],
  backend: 'sqlite' | 'postgres' = 'sqlite',
): Promise<Map<string, number>> {
  const unique = new Map<string, ComponentRef>();
  for (const ref of refs) unique.set(componentKey(ref), ref);
  const all = [...unique.values()];
  return backend === 'postgres' ? componentIdsUnnested(trx, all) : componentIdsChunked(trx, all);
}

async function componentIdsUnnested(trx: Transaction<Database>, all: ComponentRef[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  type Row = { id: number; kind: string; native_id: string };
  const take = (rows: Row[]) => {
    for (const row of rows) ids.set(`${row.kind}:${row.native_id}`, Number(row.id));
  };
  for (let i = 0; i < all.length; i += ROWS_PER_UNNEST) {
    const chunk = all.slice(i, i + ROWS_PER_UNNEST);
    take(await idsNamed(trx, chunk));
    const fresh = chunk.filter((ref) => !ids.has(componentKey(ref)));
    if (fresh.length === 0) continue;
    const keys = fresh.map((ref) => ({ owner: componentOwner(ref), ...componentSearchKeys(ref) }));
    const added = await sql<Row>`INSERT INTO components (kind, native_id, owner, search_name, search_id)
      SELECT * FROM unnest(${fresh.map((r) => r.kind)}::text[], ${fresh.map((r) => r.id)}::text[],
        ${keys.map((k) => k.owner)}::text[], ${keys.map((k) => k.search_name)}::text[], ${keys.map((k) => k.search_id)}::text[])
      ON CONFLICT (kind, native_id) DO NOTHING
      RETURNING id, kind, native_id`.execute(trx);
    take(added.rows);
    // Another process registered some of them between the two statements: read those back.
    const raced = fresh.filter((ref) => !ids.has(componentKey(ref)));
    if (raced.length > 0) {
      take(await idsNamed(trx, raced));
    }
  }
  return ids;
}

/**
 * The ids of the named components the store holds, one index probe a name. The lookup is a LATERAL
 * subquery with LIMIT 1 so PostgreSQL cannot flatten it into a join: given a join, the planner
 * weighs thousands of names against the table and picks a hash join over a scan of every component
 * (106 ms for 5,000 names among 320,000 components, against 10 ms probing the index).
 */
async function idsNamed(trx: Transaction<Database>, refs: ComponentRef[]) {
  const { rows } = await sql<{ id: number; kind: string; native_id: string }>`SELECT c.id, i.kind, i.native_id
    FROM unnest(${refs.map((r) => r.kind)}::text[], ${refs.map((r) => r.id)}::text[]) AS i(kind, native_id)
    CROSS JOIN LATERAL (SELECT id FROM components WHERE kind = i.kind AND native_id = i.native_id LIMIT 1) c`.execute(
    trx,
  );
  return rows;
}

async function componentIdsChunked(trx: Transaction<Database>, all: ComponentRef[]): Promise<Map<string, number>> {
  for (let i = 0; i < all.length; i += IDS_PER_QUERY) {
    await trx
      .insertInto('components')
      .values(
        all.slice(i, i + IDS_PER_QUERY).map((ref) => ({
          kind: ref.kind,
          native_id: ref.id,
          owner: componentOwner(ref),
          ...componentSearchKeys(ref),
        })),
      )
      .onConflict((oc) => oc.columns(['kind', 'native_id']).doNothing())
      .execute();
  }
  const ids = new Map<string, number>();
  for (const [kind, nativeIds] of nativeIdsByKind(all)) {
    for (let i = 0; i < nativeIds.length; i += IDS_PER_QUERY) {
      const rows = await trx
        .selectFrom('components')
        .select(['id', 'native_id'])
        .where('kind', '=', kind)
        .where('native_id', 'in', nativeIds.slice(i, i + IDS_PER_QUERY))
        .execute();
      for (const row of rows) ids.set(componentKey({ kind, id: row.native_id }), Number(row.id));
    }
  }
  return ids;
}
