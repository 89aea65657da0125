/**
 * Head blocks: each published head wraps a signed checkpoint and commits to the head before it
 * (prev_head_hash), giving the spec's hash chain of heads on top of the Merkle log.
 *
 * head_hash = hex SHA-256 of the RFC 8785 bytes of
 *   {tree_size, root_hash, timestamp, prev_head_hash, checkpoint}
 * so anyone can recompute it with any JCS implementation.
 */
import { CheckpointError, signCheckpoint, verifyCheckpoint } from './checkpoint.js';
import { HASH_SIZE, equalBytes, hashFromBase64, sha256, toBase64, toHex, type Hash } from './hash.js';
import { encodeLeaf } from './leaf.js';
import type { NoteSigner, NoteVerifier } from './note.js';

export interface HeadBlock {
  tree_size: number;
  /** base64 of the 32-byte root */
  root_hash: string;
  /** RFC 3339 UTC, second precision, ending in Z */
  timestamp: string;
  /** hex head_hash of the previous head; null for the first head */
  prev_head_hash: string | null;
  /** hex */
  head_hash: string;
  /** the signed checkpoint note, verbatim */
  checkpoint: string;
}

export class HeadChainError extends Error {
  constructor(
    message: string,
    /** position in the list handed to verifyHeadChain, when the fault is one head's */
    readonly index?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HeadChainError';
  }
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const HEX_HASH = /^[0-9a-f]{64}$/;

/** RFC 3339 in UTC at second precision, and a real instant (no Feb 30, no 24:00). */
export function isHeadTimestamp(ts: string): boolean {
  const m = TIMESTAMP.exec(ts);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return t.toISOString() === `${ts.slice(0, -1)}.000Z`;
}

function headHash(head: Omit<HeadBlock, 'head_hash'>): string {
  const body = {
    tree_size: head.tree_size,
    root_hash: head.root_hash,
    timestamp: head.timestamp,
    prev_head_hash: head.prev_head_hash,
    checkpoint: head.checkpoint,
  };
  return toHex(sha256(encodeLeaf(body)));
}

export function sealHead(
  input: { tree_size: number; root: Hash; timestamp: string; prev_head_hash: string | null },
  origin: string,
  signer: NoteSigner,
): HeadBlock {
  const { tree_size, root, timestamp, prev_head_hash } = input;
  if (!Number.isSafeInteger(tree_size) || tree_size < 0)
    throw new HeadChainError('tree_size must be a non-negative safe integer');
  if (!(root instanceof Uint8Array) || root.length !== HASH_SIZE)
    throw new HeadChainError('root must be a 32-byte hash');
  if (!isHeadTimestamp(timestamp))
    throw new HeadChainError(`timestamp ${JSON.stringify(timestamp)} is not RFC 3339 UTC at second precision (…Z)`);
  if (prev_head_hash !== null && !HEX_HASH.test(prev_head_hash))
    throw new HeadChainError('prev_head_hash must be null or 64 lower-case hex digits');
  const checkpoint = signCheckpoint(origin, tree_size, root, signer);
  const head = { tree_size, root_hash: toBase64(root), timestamp, prev_head_hash, checkpoint };
  return { ...head, head_hash: headHash(head) };
}

/**
 * Checks a run of consecutive heads, oldest first: every head hash recomputes, every checkpoint
 * verifies under the pinned key and origin and says what the head says, each head links to the
 * one before, sizes never shrink, one size never has two roots, and time never runs backwards.
 *
 * heads[0] may be the genesis head (prev_head_hash null) or the first head of a window the caller
 * already trusts; pass { genesis: true } to insist on the former.
 *
 * This cannot show that two heads' trees are consistent with each other — that needs a
 * consistency proof between their sizes (merkle.ts verifyConsistency).
 */
export function verifyHeadChain(
  heads: HeadBlock[],
  verifier: NoteVerifier | NoteVerifier[],
  origin: string,
  options: {
    genesis?: boolean;
    /** A head already verified that the first of `heads` must follow: linked to, not checked again. */
    after?: HeadBlock;
  } = {},
): void {
  if (!Array.isArray(heads)) throw new HeadChainError('heads must be an array');
  let prev: HeadBlock | undefined = options.after;
  heads.forEach((head, i) => {
    const fail = (msg: string, cause?: unknown): never => {
      throw new HeadChainError(
        `head ${i} (tree_size ${head?.tree_size}): ${msg}`,
        i,
        cause === undefined ? undefined : { cause },
      );
    };
    if (typeof head !== 'object' || head === null) fail('not an object');
    if (!Number.isSafeInteger(head.tree_size) || head.tree_size < 0) fail('tree_size is not a non-negative integer');
    if (!isHeadTimestamp(head.timestamp)) fail('timestamp is not RFC 3339 UTC at second precision');
    if (head.prev_head_hash !== null && !HEX_HASH.test(head.prev_head_hash)) fail('prev_head_hash is malformed');
    if (!HEX_HASH.test(head.head_hash)) fail('head_hash is malformed');
    let root: Hash;
    try {
      root = hashFromBase64(head.root_hash);
    } catch (err) {
      return fail('root_hash is not base64 of 32 bytes', err);
    }
    if (headHash(head) !== head.head_hash) fail('head_hash does not match the head');

    let signed: { size: number; root: Hash };
    try {
      signed = verifyCheckpoint(head.checkpoint, verifier, origin);
    } catch (err) {
      return fail(err instanceof CheckpointError ? err.message : 'checkpoint does not verify', err);
    }
    if (signed.size !== head.tree_size || !equalBytes(signed.root, root))
      fail('checkpoint disagrees with tree_size/root_hash');

    if (prev === undefined) {
      if (options.genesis && head.prev_head_hash !== null) fail('the first head must have prev_head_hash null');
    } else {
      if (head.prev_head_hash !== prev.head_hash) fail('prev_head_hash does not link to the previous head');
      if (head.tree_size < prev.tree_size) fail(`tree size shrank from ${prev.tree_size}`);
      if (head.tree_size === prev.tree_size && head.root_hash !== prev.root_hash)
        fail('same tree size, different root: a split view');
      if (head.timestamp < prev.timestamp) fail(`timestamp runs backwards from ${prev.timestamp}`);
    }
    prev = head;
  });
}
