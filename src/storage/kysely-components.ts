import type { Transaction } from 'kysely';
import { componentOwner, componentSearchKeys, type ComponentRef } from '../domain/component.js';
import { nativeIdsByKind } from './kysely-read.js';
import type { Database } from './schema.js';

/** Ids, rows or keys asked of the database in one statement: far below either backend's parameter limit. */
export const IDS_PER_QUERY = 500;

export function componentKey(ref: ComponentRef): string {
  return `${ref.kind}:${ref.id}`;
}

/** The id of every component `refs` names, registering the new ones: `kind:id` → id. */
export async function componentIdsOf(trx: Transaction<Database>, refs: ComponentRef[]): Promise<Map<string, number>> {
  const unique = new Map<string, ComponentRef>();
  for (const ref of refs) unique.set(componentKey(ref), ref);
  const all = [...unique.values()];
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
