import { sql, type Kysely, type Transaction } from 'kysely';
import type { SeriesEntry } from '../domain/observation.js';
import { leafHash, type Hash } from '../notary/hash.js';
import { decodeBlockChanges, encodeBlockChanges, type BlockChange } from './block-changes.js';
import { merkleTreeHash, type NodeCoord } from '../notary/merkle.js';
import { BLOCK_LEVEL, blockOf, decodeBlock, encodeBlock, LEAVES_PER_BLOCK, type BlockLeaf } from './leaf-block.js';
import type { Database } from './schema.js';
import type { StoredLeaf } from './store.js';
import { LogInvariantError } from './store-errors.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Perfect subtrees below this level are not stored: any one of them lies inside 2^6 = 64 leaves,
 * four blocks, which are read and hashed again when a proof needs it (a few hundred microseconds).
 * Storing them would cost a row per leaf; from this level up it is one row per 64 leaves.
 */
export const STORED_NODE_LEVEL = 6;

const BLOCKS_PER_QUERY = 500;

/** The leaves of `blocks`, decoded, keyed by block. */
export async function readBlocks(db: Db, blocks: Iterable<number>): Promise<Map<number, BlockLeaf[]>> {
  const wanted = [...new Set(blocks)];
  const found = new Map<number, BlockLeaf[]>();
  for (let i = 0; i < wanted.length; i += BLOCKS_PER_QUERY) {
    const rows = await db
      .selectFrom('leaf_blocks')
      .select(['block', 'bytes'])
      .where('block', 'in', wanted.slice(i, i + BLOCKS_PER_QUERY))
      .execute();
    for (const row of rows) found.set(Number(row.block), decodeBlock(row.bytes));
  }
  return found;
}

/** Leaves [from, from + limit) that the log holds, in index order, with their logged_at. */
export async function readLeafRange(db: Db, from: number, limit: number): Promise<(BlockLeaf & { index: number })[]> {
  if (limit <= 0) return [];
  const first = blockOf(from).block;
  const last = blockOf(from + limit - 1).block;
  const rows = await db
    .selectFrom('leaf_blocks')
    .select(['block', 'bytes'])
    .where('block', '>=', first)
    .where('block', '<=', last)
    .orderBy('block')
    .execute();
  const out: (BlockLeaf & { index: number })[] = [];
  for (const row of rows) {
    const start = Number(row.block) * LEAVES_PER_BLOCK;
    decodeBlock(row.bytes).forEach((leaf, slot) => {
      const index = start + slot;
      if (index >= from && index < from + limit) out.push({ ...leaf, index });
    });
  }
  return out;
}

export function storedLeaf(leaf: BlockLeaf & { index: number }): StoredLeaf {
  return { index: leaf.index, bytes: leaf.bytes, hash: leafHash(leaf.bytes), logged_at: leaf.logged_at };
}

/**
 * Writes leaves appended after `startSize` leaves: the last block, when it was not full, is
 * rewritten with the first of them, and the rest fill new blocks. `previous[i]` is, when leaf i
 * changes its component's state, the component's last asserted reading before it (block-changes.ts);
 * null leaves the blocks' changes unknown (migration 11, which runs before the column exists).
 */
export async function writeBlocks(
  trx: Transaction<Database>,
  startSize: number,
  leaves: BlockLeaf[],
  previous: (SeriesEntry | null)[] | null,
): Promise<void> {
  if (leaves.length === 0) return;
  let pending = leaves;
  let block = blockOf(startSize).block;
  const rows: (Omit<Database['leaf_blocks'], 'changes'> & { changes?: Uint8Array | null })[] = [];
  const { slot } = blockOf(startSize);
  const changesFrom = (first: number, count: number, slotOffset: number): BlockChange[] => {
    const changes: BlockChange[] = [];
    for (let i = 0; i < count; i++) {
      const before = previous![first + i];
      if (before) changes.push({ slot: slotOffset + i, previous: before });
    }
    return changes;
  };
  let taken = 0;
  if (slot > 0) {
    const held = (await readBlocks(trx, [block])).get(block);
    if (!held || held.length !== slot)
      throw new LogInvariantError(`block ${block} should hold ${slot} leaves before leaf ${startSize}`);
    const heldChanges =
      previous &&
      (await trx.selectFrom('leaf_blocks').select('changes').where('block', '=', block).executeTakeFirstOrThrow())
        .changes;
    const count = Math.min(LEAVES_PER_BLOCK - slot, pending.length);
    const filled = [...held, ...pending.slice(0, count)];
    rows.push({
      block,
      size: filled.length,
      bytes: encodeBlock(filled),
      // Unknown for the leaves held stays unknown for the whole block: the feed reads it the long way.
      ...(previous && {
        changes: heldChanges
          ? encodeBlockChanges([...decodeBlockChanges(heldChanges), ...changesFrom(0, count, slot)])
          : null,
      }),
    });
    pending = pending.slice(count);
    taken = count;
    block++;
  }
  for (let i = 0; i < pending.length; i += LEAVES_PER_BLOCK) {
    const part = pending.slice(i, i + LEAVES_PER_BLOCK);
    rows.push({
      block: block++,
      size: part.length,
      bytes: encodeBlock(part),
      ...(previous && { changes: encodeBlockChanges(changesFrom(taken + i, part.length, 0)) }),
    });
  }
  for (let i = 0; i < rows.length; i += BLOCKS_PER_QUERY) {
    await trx
      .insertInto('leaf_blocks')
      .values(rows.slice(i, i + BLOCKS_PER_QUERY))
      .onConflict((oc) =>
        oc.column('block').doUpdateSet({
          size: sql`excluded.size`,
          bytes: sql`excluded.bytes`,
          ...(previous && { changes: sql`excluded.changes` }),
        }),
      )
      .execute();
  }
}

/**
 * Hashes of perfect subtrees, in the order asked: from tree_nodes at STORED_NODE_LEVEL and up,
 * hashed again from the leaves below it.
 */
export async function readNodeHashes(db: Db, coords: NodeCoord[]): Promise<Hash[]> {
  if (coords.length === 0) return [];
  const found = new Map<string, Hash>();
  const inner = coords.filter((c) => c.level >= STORED_NODE_LEVEL);
  if (inner.length > 0) {
    const rows = await db
      .selectFrom('tree_nodes')
      .select(['level', 'idx', 'hash'])
      .where((eb) => eb.or(inner.map((c) => eb.and([eb('level', '=', c.level), eb('idx', '=', c.index)]))))
      .execute();
    for (const row of rows) found.set(`${row.level}/${Number(row.idx)}`, new Uint8Array(row.hash));
  }
  const low = coords.filter((c) => c.level < STORED_NODE_LEVEL);
  if (low.length > 0) {
    const blocks = new Set<number>();
    for (const c of low) {
      const first = blockOf(c.index * 2 ** c.level).block;
      const span = Math.max(1, (1 << c.level) >> BLOCK_LEVEL);
      for (let b = first; b < first + span; b++) blocks.add(b);
    }
    const held = await readBlocks(db, blocks);
    for (const c of low) {
      const start = c.index * 2 ** c.level;
      const hashes: Hash[] = [];
      for (let i = start; i < start + 2 ** c.level; i++) {
        const { block, slot } = blockOf(i);
        const leaf = held.get(block)?.[slot];
        if (!leaf) break;
        hashes.push(leafHash(leaf.bytes));
      }
      if (hashes.length === 2 ** c.level) found.set(`${c.level}/${c.index}`, merkleTreeHash(hashes));
    }
  }
  return coords.map((c) => {
    const hash = found.get(`${c.level}/${c.index}`);
    if (!hash) throw new LogInvariantError(`the tree has no node at level ${c.level}, index ${c.index}`);
    return hash;
  });
}

/**
 * The first leaf logged at or after `instant`: logged_at never goes backwards, so a binary search
 * over blocks (each probe one primary-key read) finds it whatever the log's size.
 */
export async function firstLeafLoggedFrom(db: Db, instant: string, treeSize: number): Promise<number | null> {
  if (treeSize === 0) return null;
  const lastAt = async (block: number) => {
    const leaves = (await readBlocks(db, [block])).get(block);
    if (!leaves) throw new LogInvariantError(`the log has no block ${block}`);
    return leaves;
  };
  let lo = 0;
  let hi = blockOf(treeSize - 1).block;
  // The first block whose last leaf is logged at or after the instant.
  if ((await lastAt(hi)).at(-1)!.logged_at < instant) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await lastAt(mid)).at(-1)!.logged_at >= instant) hi = mid;
    else lo = mid + 1;
  }
  const leaves = await lastAt(lo);
  const slot = leaves.findIndex((leaf) => leaf.logged_at >= instant);
  return lo * LEAVES_PER_BLOCK + slot;
}

/**
 * Hashes of the perfect subtrees at `level` with indices [from, from + limit) that the tree holds,
 * in index order: what a tlog tile is (level 0: leaf hashes; tile level L: tree level 8·L). From
 * STORED_NODE_LEVEL up it is one range read of tree_nodes; below, the leaves are read and hashed
 * (level 0 is the only such level a tile asks for: 256 leaves, 16 blocks).
 */
export async function readNodeHashRange(db: Db, level: number, from: number, limit: number): Promise<Hash[]> {
  if (limit <= 0) return [];
  if (level >= STORED_NODE_LEVEL) {
    const rows = await db
      .selectFrom('tree_nodes')
      .select(['idx', 'hash'])
      .where('level', '=', level)
      .where('idx', '>=', from)
      .where('idx', '<', from + limit)
      .orderBy('idx')
      .execute();
    const out: Hash[] = [];
    for (const row of rows) {
      if (Number(row.idx) !== from + out.length) break;
      out.push(new Uint8Array(row.hash));
    }
    return out;
  }
  const span = 2 ** level;
  const leaves = await readLeafRange(db, from * span, limit * span);
  const out: Hash[] = [];
  for (let i = 0; (i + 1) * span <= leaves.length; i++) {
    const hashes = leaves.slice(i * span, (i + 1) * span).map((leaf) => leafHash(leaf.bytes));
    out.push(level === 0 ? hashes[0]! : merkleTreeHash(hashes));
  }
  return out;
}
