import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { WitnessRecord } from './store.js';

/**
 * What each configured witness last said about this log: the latest checkpoint it cosigned, and
 * its refusal when its last answer was one. One row a witness, replaced on each answer.
 */

type Db = Kysely<Database>;

export async function put(db: Db, record: WitnessRecord): Promise<void> {
  const row = {
    witness: record.witness,
    cosigned_size: record.cosigned?.tree_size ?? null,
    cosigned_note: record.cosigned?.note ?? null,
    cosigned_time: record.cosigned?.timestamp ?? null,
    refused_size: record.refusal?.tree_size ?? null,
    refused_status: record.refusal?.status ?? null,
    refused_reason: record.refusal?.reason ?? null,
    refused_at: record.refusal?.at ?? null,
    updated_at: record.updated_at,
  };
  await db
    .insertInto('witness_state')
    .values(row)
    .onConflict((oc) => oc.column('witness').doUpdateSet(row))
    .execute();
}

export async function list(db: Db): Promise<WitnessRecord[]> {
  const rows = await db.selectFrom('witness_state').selectAll().orderBy('witness').execute();
  return rows.map((r) => ({
    witness: r.witness,
    cosigned:
      r.cosigned_size === null || r.cosigned_note === null || r.cosigned_time === null
        ? null
        : { tree_size: Number(r.cosigned_size), note: r.cosigned_note, timestamp: Number(r.cosigned_time) },
    refusal:
      r.refused_size === null || r.refused_reason === null || r.refused_at === null
        ? null
        : {
            tree_size: Number(r.refused_size),
            status: r.refused_status === null ? null : Number(r.refused_status),
            reason: r.refused_reason,
            at: r.refused_at,
          },
    updated_at: r.updated_at,
  }));
}
