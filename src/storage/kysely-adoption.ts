import { sql, type Kysely, type Transaction } from 'kysely';
import { dateOfDayNumber } from '../domain/calendar.js';
import type { ComponentRef } from '../domain/component.js';
import { nativeIdsByKind } from '../domain/component.js';
import type { Database } from './schema.js';
import { ENTRY_BYTES } from './series-entries.js';
import type { AdoptedComponent, AdoptedPage, HeldPage } from './store.js';

/**
 * Adoption: which packages have a page, read in bounded pages. Each component's latest census is
 * kept in `census_latest` (migration 13) as census leaves are appended, beside the component's kind
 * and id, so every read here is a range read of one index in (kind, id) byte order, however many
 * packages qualify: the sitemap and the census page through it by key, never by offset.
 */

type Db = Kysely<Database> | Transaction<Database>;

// Rows per statement: well under both backends' parameter limits (6 columns a row).
const UPSERT_CHUNK = 500;
const IDS_PER_QUERY = 200;

export interface LatestCensusRow {
  component_id: number;
  kind: string;
  native_id: string;
  leaf_index: number;
  read_date: string;
  dependents: number | null;
}

/**
 * Keeps census_latest at each component's highest census leaf: called in the append's transaction
 * with the batch's latest read per component. A row is only ever moved forward.
 */
export async function keepLatestCensus(trx: Db, rows: Iterable<LatestCensusRow>): Promise<void> {
  const all = [...rows];
  for (let i = 0; i < all.length; i += UPSERT_CHUNK) {
    await trx
      .insertInto('census_latest')
      .values(all.slice(i, i + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc
          .column('component_id')
          .doUpdateSet((eb) => ({
            leaf_index: eb.ref('excluded.leaf_index'),
            read_date: eb.ref('excluded.read_date'),
            dependents: eb.ref('excluded.dependents'),
          }))
          .where('census_latest.leaf_index', '<', (eb) => eb.ref('excluded.leaf_index')),
      )
      .execute();
  }
}

/** `(kind, native_id) > (after)`, written out: both backends use the index for it. */
function afterKey(after: ComponentRef | null) {
  if (after === null) return sql`TRUE`;
  return sql`(l.kind > ${after.kind} OR (l.kind = ${after.kind} AND l.native_id > ${after.id}))`;
}

/** The date a series row's last entry is dated (its bytes 6–7: days since 1970-01-01). */
function lastEntryDate(last: Uint8Array | null): string | null {
  if (last === null || last.byteLength < ENTRY_BYTES) return null;
  const buf = Buffer.from(last.buffer, last.byteOffset, last.byteLength);
  return dateOfDayNumber(buf.readUInt16BE(6));
}

/**
 * Packages whose latest census counted at least `minDependents` (null never qualifies), strictly
 * after `after` in (kind, id) byte order, at most `limit`; each with the date of its latest reading.
 */
export async function readAdoptedPage(
  db: Db,
  after: ComponentRef | null,
  minDependents: number,
  limit: number,
): Promise<AdoptedPage[]> {
  const { rows } = await sql<{
    kind: string;
    native_id: string;
    dependents: number;
    read_date: string;
    leaf_index: number;
    last: Uint8Array | null;
  }>`
    SELECT l.kind, l.native_id, l.dependents, l.read_date, l.leaf_index,
      substr(s.entries, length(s.entries) - ${sql.raw(String(ENTRY_BYTES - 1))}) AS last
    FROM census_latest l LEFT JOIN series s ON s.component_id = l.component_id
    WHERE ${afterKey(after)} AND l.dependents >= ${minDependents}
    ORDER BY l.kind, l.native_id
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    component: { kind: r.kind as ComponentRef['kind'], id: r.native_id },
    dependents: Number(r.dependents),
    read_date: r.read_date,
    leaf_index: Number(r.leaf_index),
    observed_date: lastEntryDate(r.last),
  }));
}

/**
 * Components of `kinds` the record holds a reading of (a series row: a discovered name never shown
 * public has none), strictly after `after` in (kind, id) byte order, at most `limit`; each with the
 * date of its latest reading. The kinds with no census, whose every held component has a page.
 * PostgreSQL compares `native_id` under "C" so the order is bytes there as in SQLite.
 */
export async function readHeldPage(
  db: Db,
  backend: 'sqlite' | 'postgres',
  kinds: readonly ComponentRef['kind'][],
  after: ComponentRef | null,
  limit: number,
): Promise<HeldPage[]> {
  if (kinds.length === 0) return [];
  const id = backend === 'postgres' ? sql`c.native_id COLLATE "C"` : sql`c.native_id`;
  const afterClause =
    after === null ? sql`TRUE` : sql`(c.kind > ${after.kind} OR (c.kind = ${after.kind} AND ${id} > ${after.id}))`;
  const { rows } = await sql<{ kind: string; native_id: string; last: Uint8Array | null }>`
    SELECT c.kind, c.native_id,
      substr(s.entries, length(s.entries) - ${sql.raw(String(ENTRY_BYTES - 1))}) AS last
    FROM components c JOIN series s ON s.component_id = c.id
    WHERE c.kind IN (${sql.join(kinds.map((k) => sql`${k}`))}) AND ${afterClause}
    ORDER BY c.kind, ${id}
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    component: { kind: r.kind as ComponentRef['kind'], id: r.native_id },
    observed_date: lastEntryDate(r.last),
  }));
}

/** adoptedComponents: one kind's packages with a page, in id order (a kind's range of the same index). */
export async function readAdoptedOfKind(
  db: Db,
  kind: ComponentRef['kind'],
  minDependents: number,
): Promise<AdoptedComponent[]> {
  const rows = await db
    .selectFrom('census_latest')
    .select(['native_id', 'dependents', 'read_date', 'leaf_index'])
    .where('kind', '=', kind)
    .where('dependents', '>=', minDependents)
    .orderBy('native_id')
    .execute();
  return rows.map((r) => ({
    component: { kind, id: r.native_id },
    dependents: Number(r.dependents),
    read_date: r.read_date,
    leaf_index: Number(r.leaf_index),
  }));
}

export async function readAdoptedCount(db: Db, minDependents: number): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    SELECT count(*) AS n FROM census_latest WHERE dependents >= ${minDependents}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Which of `refs` the census counts: on the watch list, and not a discovered name no read has
 * shown public (its census leaf would publish it). Keyed `kind:id`.
 */
export async function readWatchedAmong(db: Db, refs: ComponentRef[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const [kind, ids] of nativeIdsByKind(refs)) {
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await db
        .selectFrom('watch')
        .innerJoin('components', 'components.id', 'watch.component_id')
        .select('components.native_id')
        .where('components.kind', '=', kind)
        .where('components.native_id', 'in', ids.slice(i, i + IDS_PER_QUERY))
        .where((eb) =>
          eb.or([
            eb('watch.discovered', '=', 0),
            eb.exists(
              eb
                .selectFrom('series')
                .select('series.component_id')
                .whereRef('series.component_id', '=', 'components.id'),
            ),
          ]),
        )
        .execute();
      for (const r of rows) out.add(`${kind}:${r.native_id}`);
    }
  }
  return out;
}

/**
 * Watched components of `kind` the census counts (as readWatchedAmong) whose dependents were never
 * read, after `after` by id, at most `limit`: the ones a census reads one by one.
 */
export async function readUncountedWatched(
  db: Db,
  kind: ComponentRef['kind'],
  after: string | null,
  limit: number,
): Promise<ComponentRef[]> {
  let q = db
    .selectFrom('watch')
    .innerJoin('components', 'components.id', 'watch.component_id')
    .select('components.native_id')
    .where('components.kind', '=', kind)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('census_latest')
            .select('census_latest.component_id')
            .whereRef('census_latest.component_id', '=', 'components.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.or([
        eb('watch.discovered', '=', 0),
        eb.exists(
          eb.selectFrom('series').select('series.component_id').whereRef('series.component_id', '=', 'components.id'),
        ),
      ]),
    );
  if (after !== null) q = q.where('components.native_id', '>', after);
  const rows = await q.orderBy('components.native_id').limit(limit).execute();
  return rows.map((r) => ({ kind, id: r.native_id }));
}
