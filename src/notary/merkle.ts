/**
 * The RFC 6962 / RFC 9162 Merkle tree over leaf hashes, addressed by perfect subtrees.
 *
 * A perfect subtree {level, index} covers leaves [index·2^level, (index+1)·2^level). Storage keeps
 * the hash of every perfect subtree once it completes, so every proof element — the MTH of some
 * RFC subtree D[a:b] — is the right fold of O(log n) stored nodes (its perfect cover), and no proof
 * ever rehashes leaves.
 *
 * Sizes and indices are JS numbers; all arithmetic here uses division rather than bit operators
 * so that trees beyond 2^31 leaves stay correct (bit operators truncate to 32 bits).
 */
import { EMPTY_ROOT, HASH_SIZE, equalBytes, leafHashBuffer, nodeHash, nodeHashBuffer, type Hash } from './hash.js';

export interface NodeCoord {
  level: number;
  index: number;
}

function assertCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative safe integer, got ${n}`);
}

function largestPow2AtMost(n: number): number {
  let k = 1;
  while (k * 2 <= n) k *= 2;
  return k;
}

/** RFC 6962 §2.1: k is the largest power of two smaller than n (n ≥ 2). */
function splitPoint(n: number): number {
  return largestPow2AtMost(n - 1);
}

function log2(k: number): number {
  let level = 0;
  while (k > 1) {
    k /= 2;
    level++;
  }
  return level;
}

function isOdd(n: number): boolean {
  return n % 2 === 1;
}

function half(n: number): number {
  return Math.floor(n / 2);
}

/** Perfect subtrees of level ≥ 1 that leaf `leafIndex` completes, lowest first. */
export function nodesCompletedByAppend(leafIndex: number): NodeCoord[] {
  assertCount('leafIndex', leafIndex);
  const out: NodeCoord[] = [];
  let i = leafIndex;
  let level = 0;
  while (isOdd(i)) {
    i = (i - 1) / 2;
    level++;
    out.push({ level, index: i });
  }
  return out;
}

/**
 * [start, end) as perfect subtrees, left to right, largest first. RFC subtrees always start at a
 * multiple of the largest power of two that fits in them, which is what makes the greedy split
 * land on aligned nodes; anything else is a caller bug.
 */
export function perfectCover(start: number, end: number): NodeCoord[] {
  assertCount('start', start);
  assertCount('end', end);
  if (end < start) throw new RangeError(`end ${end} < start ${start}`);
  if (start === end) return [];
  if (start % largestPow2AtMost(end - start) !== 0) {
    throw new RangeError(`[${start}, ${end}) is not an RFC 6962 subtree range`);
  }
  const out: NodeCoord[] = [];
  let at = start;
  while (at < end) {
    const k = largestPow2AtMost(end - at);
    out.push({ level: log2(k), index: at / k });
    at += k;
  }
  return out;
}

/** The perfect subtrees whose right fold is the root of a tree of `size` leaves. */
export function rootCoords(size: number): NodeCoord[] {
  return perfectCover(0, size);
}

/** MTH of a cover, given its node hashes left to right: H(h1, H(h2, … H(hn-1, hn))). */
export function foldCover(hashes: Hash[]): Hash {
  if (hashes.length === 0) return EMPTY_ROOT.slice();
  let acc = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i]!, acc);
  return acc;
}

/** Turns coordinate lists (from the *ProofCoords functions) into proof hashes via a node lookup. */
export function assembleProof(coords: NodeCoord[][], lookup: (coord: NodeCoord) => Hash): Hash[] {
  return coords.map((cover) => foldCover(cover.map(lookup)));
}

/**
 * RFC 9162 §2.1.3.1 PATH(index, D[0:size]), one perfect cover per proof element, leaf's sibling
 * first. Walks the RFC recursion top-down with absolute offsets, then reverses.
 */
export function inclusionProofCoords(index: number, size: number): NodeCoord[][] {
  assertCount('index', index);
  assertCount('size', size);
  if (index >= size) throw new RangeError(`index ${index} is not below size ${size}`);
  const ranges: [number, number][] = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
    }
  }
  return ranges.reverse().map(([a, b]) => perfectCover(a, b));
}

/**
 * RFC 9162 §2.1.4.1 PROOF(from, D[0:to]), one perfect cover per element, in proof order.
 *
 * from = 0 is rejected: every tree is trivially consistent with the empty tree, so such a proof
 * proves nothing, and transparency-dev/merkle stopped producing and accepting it (#236). Clients
 * bootstrap from the first checkpoint they verify instead. from = to is the empty proof.
 */
export function consistencyProofCoords(from: number, to: number): NodeCoord[][] {
  assertCount('from', from);
  assertCount('to', to);
  if (from === 0) throw new RangeError('consistency proofs from the empty tree are meaningless (from must be ≥ 1)');
  if (to < from) throw new RangeError(`to ${to} < from ${from}`);
  const ranges: [number, number][] = [];
  let lo = 0;
  let hi = to;
  let m = from;
  let complete = true; // the RFC's b flag: is the old tree still a whole subtree of this one?
  for (;;) {
    const n = hi - lo;
    if (m === n) {
      if (!complete) ranges.push([lo, hi]);
      break;
    }
    const k = splitPoint(n);
    if (m <= k) {
      ranges.push([lo + k, hi]);
      hi = lo + k;
    } else {
      ranges.push([lo, lo + k]);
      lo += k;
      m -= k;
      complete = false;
    }
  }
  return ranges.reverse().map(([a, b]) => perfectCover(a, b));
}

function isHashList(proof: unknown): proof is Hash[] {
  return Array.isArray(proof) && proof.every((h) => h instanceof Uint8Array && h.length === HASH_SIZE);
}

function isHash(h: unknown): h is Hash {
  return h instanceof Uint8Array && h.length === HASH_SIZE;
}

/** RFC 9162 §2.1.3.2. Any malformed argument is a failed proof, never an exception. */
export function verifyInclusion(leaf: Hash, index: number, size: number, proof: Hash[], root: Hash): boolean {
  try {
    if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
    if (!isHash(leaf) || !isHash(root) || !isHashList(proof)) return false;
    let fn = index;
    let sn = size - 1;
    let r = leaf;
    for (const p of proof) {
      if (sn === 0) return false;
      if (isOdd(fn) || fn === sn) {
        r = nodeHash(p, r);
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      } else {
        r = nodeHash(r, p);
      }
      fn = half(fn);
      sn = half(sn);
    }
    return sn === 0 && equalBytes(r, root);
  } catch {
    return false;
  }
}

/**
 * RFC 9162 §2.1.4.2, plus the two edges the RFC leaves to the caller, decided as
 * transparency-dev/merkle does (their probes pin both):
 * - from = to: consistent iff the proof is empty and the two roots are the same bytes (also for
 *   from = to = 0);
 * - 0 = from < to: always false (see consistencyProofCoords).
 */
export function verifyConsistency(from: number, to: number, proof: Hash[], fromRoot: Hash, toRoot: Hash): boolean {
  try {
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from) return false;
    if (!Array.isArray(proof)) return false;
    if (from === to) {
      return (
        proof.length === 0 &&
        fromRoot instanceof Uint8Array &&
        toRoot instanceof Uint8Array &&
        equalBytes(fromRoot, toRoot)
      );
    }
    if (from === 0 || proof.length === 0) return false;
    if (!isHash(fromRoot) || !isHash(toRoot) || !isHashList(proof)) return false;

    // Step 1: when the old tree is a perfect subtree its root is the path's seed.
    const path = largestPow2AtMost(from) === from ? [fromRoot, ...proof] : proof;
    let fn = from - 1;
    let sn = to - 1;
    while (isOdd(fn)) {
      fn = half(fn);
      sn = half(sn);
    }
    let fr = path[0]!;
    let sr = path[0]!;
    for (let i = 1; i < path.length; i++) {
      const c = path[i]!;
      if (sn === 0) return false;
      if (isOdd(fn) || fn === sn) {
        fr = nodeHash(c, fr);
        sr = nodeHash(c, sr);
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      } else {
        sr = nodeHash(sr, c);
      }
      fn = half(fn);
      sn = half(sn);
    }
    return sn === 0 && equalBytes(fr, fromRoot) && equalBytes(sr, toRoot);
  } catch {
    return false;
  }
}

/**
 * Streaming right edge of the tree: the roots of rootCoords(size), left to right. Appending a
 * leaf merges equal-height neighbours, so each append costs amortised one node hash and the root
 * is available at any time in O(log n).
 */
export class CompactRange {
  private n: number;
  private readonly edge: Hash[];

  constructor(size = 0, rightEdge: Hash[] = []) {
    assertCount('size', size);
    if (rightEdge.length !== rootCoords(size).length) {
      throw new RangeError(
        `a tree of ${size} leaves has ${rootCoords(size).length} right-edge nodes, got ${rightEdge.length}`,
      );
    }
    if (!isHashList(rightEdge)) throw new RangeError('right-edge nodes must be 32-byte hashes');
    this.n = size;
    this.edge = rightEdge.map((h) => new Uint8Array(h));
  }

  get size(): number {
    return this.n;
  }

  /** Appends a leaf hash and reports every perfect node it completes, the leaf itself first. */
  append(leaf: Hash): { completed: { coord: NodeCoord; hash: Hash }[] } {
    if (!isHash(leaf)) throw new RangeError('leaf hash must be 32 bytes');
    const completed = [{ coord: { level: 0, index: this.n }, hash: leaf }];
    let node = leaf;
    let s = this.n;
    let level = 0;
    while (isOdd(s)) {
      node = nodeHash(this.edge.pop()!, node);
      s = (s - 1) / 2;
      level++;
      completed.push({ coord: { level, index: s }, hash: node });
    }
    this.edge.push(node);
    this.n++;
    return { completed };
  }

  /**
   * append without the report, for the audit loop, which needs only the root. The range keeps a
   * reference to `leaf` (no copy in the hot loop). Interior nodes stay as the Buffers node:crypto
   * returns, never re-wrapped per hash; root() and rightEdge() hand out copies.
   */
  push(leaf: Hash): void {
    if (leaf.length !== HASH_SIZE) throw new RangeError('leaf hash must be 32 bytes');
    this.merge(leaf);
  }

  /** push(leafHash(bytes)) in one step, without exposing (or re-wrapping) the leaf hash. */
  pushLeaf(bytes: Uint8Array): void {
    this.merge(leafHashBuffer(bytes));
  }

  private merge(leaf: Uint8Array): void {
    let node = leaf;
    let s = this.n;
    while (isOdd(s)) {
      node = nodeHashBuffer(this.edge.pop()!, node);
      s = (s - 1) / 2;
    }
    this.edge.push(node);
    this.n++;
  }

  root(): Hash {
    const edge = this.edge;
    if (edge.length === 0) return EMPTY_ROOT.slice();
    if (edge.length === 1) return new Uint8Array(edge[0]!);
    let acc = nodeHash(edge[edge.length - 2]!, edge[edge.length - 1]!);
    for (let j = edge.length - 3; j >= 0; j--) acc = nodeHash(edge[j]!, acc);
    return acc;
  }

  /** Copies of the right-edge hashes (left to right), e.g. to persist and later resume from. */
  rightEdge(): Hash[] {
    return this.edge.map((h) => new Uint8Array(h));
  }
}

// ---------------------------------------------------------------------------------------------
// Reference implementations, straight from the RFC recursions over an in-memory list of leaf
// hashes. They are quadratic-ish and exist to cross-check the coordinate functions in tests.

function checkPrefix(leaves: Hash[], size: number): void {
  assertCount('size', size);
  if (size > leaves.length) throw new RangeError(`size ${size} exceeds ${leaves.length} leaves`);
}

function mth(leaves: Hash[], lo: number, hi: number): Hash {
  const n = hi - lo;
  if (n === 0) return EMPTY_ROOT.slice();
  if (n === 1) return leaves[lo]!;
  const k = splitPoint(n);
  return nodeHash(mth(leaves, lo, lo + k), mth(leaves, lo + k, hi));
}

/** RFC 6962 §2.1 MTH over leaf hashes. */
export function merkleTreeHash(leaves: Hash[]): Hash {
  return mth(leaves, 0, leaves.length);
}

/** RFC 9162 §2.1.3.1 PATH(index, D[0:size]) computed from the leaves. */
export function inclusionProof(leaves: Hash[], index: number, size: number): Hash[] {
  checkPrefix(leaves, size);
  assertCount('index', index);
  if (index >= size) throw new RangeError(`index ${index} is not below size ${size}`);
  const path = (m: number, lo: number, hi: number): Hash[] => {
    if (hi - lo === 1) return [];
    const k = splitPoint(hi - lo);
    if (m < k) return [...path(m, lo, lo + k), mth(leaves, lo + k, hi)];
    return [...path(m - k, lo + k, hi), mth(leaves, lo, lo + k)];
  };
  return path(index, 0, size);
}

/** RFC 9162 §2.1.4.1 PROOF(from, D[0:to]) computed from the leaves (from ≥ 1, as above). */
export function consistencyProof(leaves: Hash[], from: number, to: number): Hash[] {
  checkPrefix(leaves, to);
  assertCount('from', from);
  if (from === 0) throw new RangeError('consistency proofs from the empty tree are meaningless (from must be ≥ 1)');
  if (to < from) throw new RangeError(`to ${to} < from ${from}`);
  const subproof = (m: number, lo: number, hi: number, b: boolean): Hash[] => {
    const n = hi - lo;
    if (m === n) return b ? [] : [mth(leaves, lo, hi)];
    const k = splitPoint(n);
    if (m <= k) return [...subproof(m, lo, lo + k, b), mth(leaves, lo + k, hi)];
    return [...subproof(m - k, lo + k, hi, false), mth(leaves, lo, lo + k)];
  };
  return subproof(from, 0, to, true);
}
