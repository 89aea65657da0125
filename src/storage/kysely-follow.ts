/**
 * The followers' cursors (DESIGN §8a): one row per followed registry, with where its feed was
 * left, when it last read on contiguously and the faults it met, so a restart resumes at the
 * cursor and an operator can see a follower's health. Queries shared by both adapters.
 * Operator bookkeeping, not part of the record: nothing here is logged or exported.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { FollowCursorRecord, FollowProgress } from './follow-records.js';

/** The table's shape, kept beside its only queries (schema.ts holds the record's tables). */
type FollowTables = {
  follow_cursors: {
    registry: string;
    cursor: string;
    updated_at: string;
    last_contiguous_at: string | null;
    faults_seen: number;
    /** JSON {kind, detail, at} of the newest fault, or null. */
    last_fault: string | null;
  };
};

type Db = Kysely<Database>;

export async function followCursor(db: Db, registry: string): Promise<FollowCursorRecord | null> {
  const row = await db
    .withTables<FollowTables>()
    .selectFrom('follow_cursors')
    .selectAll()
    .where('registry', '=', registry)
    .executeTakeFirst();
  if (!row) return null;
  return {
    registry: row.registry,
    cursor: row.cursor,
    updated_at: row.updated_at,
    last_contiguous_at: row.last_contiguous_at,
    faults_seen: Number(row.faults_seen),
    last_fault: row.last_fault === null ? null : (JSON.parse(row.last_fault) as FollowCursorRecord['last_fault']),
  };
}

export async function setFollowCursor(
  db: Db,
  registry: string,
  cursor: string,
  at: string,
  progress: FollowProgress,
): Promise<void> {
  const newest = progress.faults.at(-1);
  const lastFault = newest
    ? JSON.stringify({ kind: newest.kind, detail: newest.detail.slice(0, 500), at: newest.at })
    : null;
  const contiguousAt = progress.contiguous ? at : null;
  await db
    .withTables<FollowTables>()
    .insertInto('follow_cursors')
    .values({
      registry,
      cursor,
      updated_at: at,
      last_contiguous_at: contiguousAt,
      faults_seen: progress.faults.length,
      last_fault: lastFault,
    })
    .onConflict((oc) =>
      oc.column('registry').doUpdateSet({
        cursor,
        updated_at: at,
        // A batch that broke contiguity leaves the last contiguous read where it was.
        last_contiguous_at: sql<string | null>`coalesce(${contiguousAt}, follow_cursors.last_contiguous_at)`,
        faults_seen: sql<number>`follow_cursors.faults_seen + ${progress.faults.length}`,
        last_fault: sql<string | null>`coalesce(${lastFault}, follow_cursors.last_fault)`,
      }),
    )
    .execute();
}
