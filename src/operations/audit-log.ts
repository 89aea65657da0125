import { HASH_SIZE, toBase64 } from '../notary/hash.js';
import { LeafHasher } from '../notary/leaf-hasher.js';
import { verifyHeadChain, type HeadBlock } from '../notary/head.js';
import { verifyCheckpoint } from '../notary/checkpoint.js';
import { isCanonicalLeaf } from '../notary/leaf.js';
import { CompactRange } from '../notary/merkle.js';
import type { NoteVerifier } from '../notary/note.js';
import type { Store } from '../storage/store.js';

/**
 * What an audit reads: a signed checkpoint, every leaf from 0 in order, and optionally the heads.
 * Leaves come one at a time or a page at a time: a page costs one turn of the event loop where a
 * leaf each would cost one per leaf, a cost the size of the hashing itself.
 */
export interface LogSource {
  checkpoint: string;
  leaves: AsyncIterable<Uint8Array | readonly Uint8Array[]>;
  heads?: AsyncIterable<HeadBlock[]>;
}

export interface AuditReport {
  origin: string;
  tree_size: number;
  root_hash: string;
  heads_checked: number;
}

export class AuditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditError';
  }
}

/** Pages of at least this many leaves are hashed on a second thread (leaf-hasher.ts). */
export const PARALLEL_PAGE = 4096;

// Re-canonicalising costs about three hashes; checking one leaf in this many keeps the audit near raw hashing.
export const CANONICAL_SAMPLE = 1024;

/** The checkpoint's size and root once its signature verifies with a pinned key; an AuditError otherwise. */
export function verifySignedCheckpoint(
  checkpoint: string,
  verifier: NoteVerifier | NoteVerifier[],
  origin: string,
): { size: number; root: Uint8Array } {
  try {
    return verifyCheckpoint(checkpoint, verifier, origin);
  } catch (error) {
    const name = Array.isArray(verifier) ? verifier.map((v) => v.name).join(', ') : verifier.name;
    throw new AuditError(`the checkpoint does not verify with the pinned key ${name}: ${(error as Error).message}`);
  }
}

/**
 * Rebuilds the whole tree from the leaves and checks it against the checkpoint signed by the pinned
 * key, and every head (when given) against the tree at its size and against the head before it.
 * Uses only published data: the same check runs over the store, an export file, or a running service.
 */
export async function auditLog(
  source: LogSource,
  verifier: NoteVerifier | NoteVerifier[],
  origin: string,
  options: { parallelPage?: number } = {},
): Promise<AuditReport> {
  const parallelPage = options.parallelPage ?? PARALLEL_PAGE;
  const signed = verifySignedCheckpoint(source.checkpoint, verifier, origin);
  const range = new CompactRange();
  const heads = source.heads ? flatten(source.heads) : null;
  let nextHead = heads ? await heads.next() : null;
  let previous: HeadBlock | null = null;
  let headsChecked = 0;

  /** Checks the next head, when it is the one at `size`, against the tree and the head before it. */
  const checkHeadAt = (head: HeadBlock, size: number) => {
    const root = toBase64(range.root());
    if (head.root_hash !== root)
      throw new AuditError(
        `head ${head.head_hash} claims root ${head.root_hash} at size ${size}, but the leaves give ${root}`,
      );
    try {
      // The previous head was checked when it was reached: only the link to it is checked here.
      verifyHeadChain([head], verifier, origin, {
        genesis: previous === null && head.tree_size === 0,
        ...(previous && { after: previous }),
      });
    } catch (error) {
      throw new AuditError(`the head at size ${size} does not link to the one before it: ${(error as Error).message}`);
    }
    previous = head;
    headsChecked++;
  };

  const advanceHeads = async (size: number) => {
    while (nextHead && !nextHead.done && nextHead.value.tree_size === size) {
      checkHeadAt(nextHead.value, size);
      nextHead = await heads!.next();
    }
    if (nextHead && !nextHead.done && nextHead.value.tree_size < size) {
      throw new AuditError(`head ${nextHead.value.head_hash} has size ${nextHead.value.tree_size}, out of order`);
    }
  };

  /** Folds a page into the tree: its leaves' hashes, from the second thread when it made them. */
  const fold = async (page: readonly Uint8Array[], hashes: Promise<Uint8Array> | null) => {
    const leafHashes = hashes ? await hashes : null;
    for (let i = 0; i < page.length; i++) {
      const bytes = page[i]!;
      if (range.size % CANONICAL_SAMPLE === 0 && !isCanonicalLeaf(bytes)) {
        throw new AuditError(`leaf ${range.size} is not RFC 8785 canonical JSON`);
      }
      if (leafHashes) range.push(leafHashes.subarray(i * HASH_SIZE, (i + 1) * HASH_SIZE));
      else range.pushLeaf(bytes);
      // Heads are a few hundred against millions of leaves: only a head due at this size is awaited.
      if (nextHead && !nextHead.done && nextHead.value.tree_size <= range.size) await advanceHeads(range.size);
      if (range.size > signed.size)
        throw new AuditError(`there are more leaves than the ${signed.size} the checkpoint covers`);
    }
  };

  if (heads) await advanceHeads(0);
  // Large pages are hashed on a second thread: while it hashes one page, this one folds the one before.
  let hasher: LeafHasher | null = null;
  let pending: { page: readonly Uint8Array[]; hashes: Promise<Uint8Array> | null } | null = null;
  try {
    for await (const item of source.leaves) {
      const page = item instanceof Uint8Array ? [item] : item;
      const hashes = page.length >= parallelPage ? (hasher ??= new LeafHasher()).hashPage(page) : null;
      // Handled when folded; if the audit fails first, its failure is the one reported.
      hashes?.catch(() => {});
      if (pending) await fold(pending.page, pending.hashes);
      pending = { page, hashes };
    }
    if (pending) await fold(pending.page, pending.hashes);
  } finally {
    await hasher?.close();
  }
  if (range.size !== signed.size) {
    throw new AuditError(`the checkpoint covers ${signed.size} leaves but ${range.size} were read`);
  }
  if (toBase64(range.root()) !== toBase64(signed.root)) {
    throw new AuditError(
      `the leaves give root ${toBase64(range.root())}, but the signed checkpoint says ${toBase64(signed.root)}`,
    );
  }
  if (heads && nextHead && !nextHead.done) {
    throw new AuditError(`head at size ${nextHead.value.tree_size} is beyond the checkpoint (${signed.size})`);
  }
  return { origin, tree_size: signed.size, root_hash: toBase64(signed.root), heads_checked: headsChecked };
}

async function* flattenPages(pages: AsyncIterable<HeadBlock[]>): AsyncGenerator<HeadBlock> {
  for await (const page of pages) yield* page;
}

function flatten(pages: AsyncIterable<HeadBlock[]>): AsyncIterator<HeadBlock> {
  return flattenPages(pages)[Symbol.asyncIterator]();
}

const SOURCE_PAGE = 5000;
/** Leaves are read in large pages: one query and one await per 20,000 leaves. */
const LEAF_PAGE = 20_000;

/** The store as a LogSource, bounded by one head so appends during the audit do not disturb it. */
export function storeLogSource(store: Store, head: HeadBlock): LogSource {
  return {
    checkpoint: head.checkpoint,
    leaves: (async function* () {
      // The next page is asked for before this one is hashed, so reading and hashing overlap.
      const page = (from: number) =>
        from < head.tree_size ? store.leafBytes(from, Math.min(LEAF_PAGE, head.tree_size - from)) : null;
      let next = page(0);
      for (let from = 0; next; from += LEAF_PAGE) {
        const leaves = await next;
        next = page(from + LEAF_PAGE);
        yield leaves;
      }
    })(),
    heads: (async function* () {
      for (let from = 0; ;) {
        const page = (await store.heads(from, SOURCE_PAGE)).filter((h) => h.tree_size <= head.tree_size);
        if (page.length === 0) return;
        yield page;
        from = page.at(-1)!.tree_size + 1;
      }
    })(),
  };
}
