import type { Kysely, Transaction } from 'kysely';
import type { Census } from '../domain/census.js';
import type { ComponentRef } from '../domain/component.js';
import type { Observation } from '../domain/observation.js';
import type { State } from '../domain/state.js';
import type { Hash } from '../notary/hash.js';
import type { HeadBlock } from '../notary/head.js';
import type { NodeCoord } from '../notary/merkle.js';
import type { Database } from './schema.js';
import { LogInvariantError, type StoredLeaf } from './store.js';

/** Row → domain conversions and the node-hash read, shared by the store's reads and its appends. */

type Db = Kysely<Database> | Transaction<Database>;

export async function readNodeHashes(db: Db, coords: NodeCoord[]): Promise<Hash[]> {
  if (coords.length === 0) return [];
  const leafIdx = coords.filter((c) => c.level === 0).map((c) => c.index);
  const inner = coords.filter((c) => c.level > 0);
  const found = new Map<string, Hash>();
  if (leafIdx.length > 0) {
    for (const row of await db.selectFrom('leaves').select(['idx', 'hash']).where('idx', 'in', leafIdx).execute()) {
      found.set(`0/${Number(row.idx)}`, new Uint8Array(row.hash));
    }
  }
  if (inner.length > 0) {
    const rows = await db
      .selectFrom('tree_nodes')
      .select(['level', 'idx', 'hash'])
      .where((eb) => eb.or(inner.map((c) => eb.and([eb('level', '=', c.level), eb('idx', '=', c.index)]))))
      .execute();
    for (const row of rows) found.set(`${row.level}/${Number(row.idx)}`, new Uint8Array(row.hash));
  }
  return coords.map((c) => {
    const hash = found.get(`${c.level}/${c.index}`);
    if (!hash) throw new LogInvariantError(`the tree has no stored node at level ${c.level}, index ${c.index}`);
    return hash;
  });
}

/** At most one scheduled observation and one correction per component per date. */

export function toObservation(component: ComponentRef, row: Database['observations']): Observation {
  return {
    component,
    observed_at: row.observed_at,
    observation_date: row.observation_date,
    state: row.state as State,
    source: row.source,
    evidence: JSON.parse(row.evidence) as Observation['evidence'],
    method: row.method,
    corrects: row.corrects === null ? null : Number(row.corrects),
    leaf_index: Number(row.leaf_index),
  };
}

export function toCensus(component: ComponentRef, row: Database['census']): Census {
  return {
    component,
    read_at: row.read_at,
    read_date: row.read_date,
    dependents: row.dependents === null ? null : Number(row.dependents),
    source: row.source,
    evidence: JSON.parse(row.evidence) as Observation['evidence'],
    method: row.method,
    leaf_index: Number(row.leaf_index),
  };
}

export function toHead(row: Database['heads']): HeadBlock {
  return { ...row, tree_size: Number(row.tree_size) };
}

export function toLeaf(row: Database['leaves']): StoredLeaf {
  return {
    index: Number(row.idx),
    bytes: new Uint8Array(row.bytes),
    hash: new Uint8Array(row.hash),
    logged_at: row.logged_at,
  };
}

/**
 * Native ids grouped by kind: lookups of many components ask `kind = ? AND native_id IN (…)` per
 * kind, which both backends answer from the (kind, native_id) index (an OR of pairs makes them scan).
 */
export function nativeIdsByKind(refs: Iterable<ComponentRef>): Map<ComponentRef['kind'], string[]> {
  const byKind = new Map<ComponentRef['kind'], string[]>();
  for (const ref of refs) {
    const ids = byKind.get(ref.kind);
    if (ids) ids.push(ref.id);
    else byKind.set(ref.kind, [ref.id]);
  }
  return byKind;
}
