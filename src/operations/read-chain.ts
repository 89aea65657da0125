import { TendedError, ValidationError } from '../domain/errors.js';
import { toBase64 } from '../notary/hash.js';
import type { HeadBlock } from '../notary/head.js';
import { assembleProof, consistencyProofCoords, inclusionProofCoords, type NodeCoord } from '../notary/merkle.js';
import type { StoredLeaf } from '../storage/store.js';
import { weakTag } from './answer-cache.js';
import type { RecordDeps } from './deps.js';

export class NotFoundError extends TendedError {
  constructor(message: string) {
    super('not_found', message);
    this.name = 'NotFoundError';
  }
}

export type HeadAnswer = HeadBlock & { origin: string; verifier_key: string; verifier_keys: string[] };

/** The current head: size, root and the signed checkpoint; clients take size and root from the note. */
export async function readHead(deps: RecordDeps): Promise<HeadAnswer> {
  // Reads never write: the log's first head is sealed when the service opens the store.
  const head = await deps.store.latestHead();
  if (!head) throw new NotFoundError('the log has no head yet; it is sealed when `tended serve` first opens the store');
  return { origin: deps.notary.origin, ...head, verifier_key: deps.notary.vkey, verifier_keys: deps.notary.vkeys };
}

/** The head as served: the JSON answer and the checkpoint note as bytes, each with its tag. */
export interface ServedHead {
  json: Uint8Array<ArrayBuffer>;
  jsonEtag: string;
  checkpoint: Uint8Array<ArrayBuffer>;
  checkpointEtag: string;
}

/**
 * The current head, rendered once per head. Its version key (tree size, head hash and the keys the
 * answer lists; the head hash covers root, timestamp and the signed note) names its bytes, so a
 * repeat read is the head's one indexed query and a comparison, where tagging by the body's hash
 * cost a serialisation and a SHA-256 on every read. Shared by the routes and the hot path.
 */
export class HeadAnswers {
  private last: { version: string; served: ServedHead } | undefined;

  async current(deps: RecordDeps): Promise<ServedHead> {
    const head = await readHead(deps);
    const version = `${head.tree_size}|${head.head_hash}|${head.origin}|${head.verifier_keys.join(' ')}`;
    if (this.last?.version === version) return this.last.served;
    const served: ServedHead = {
      json: utf8.encode(JSON.stringify(head)),
      jsonEtag: weakTag(`head|${version}`),
      checkpoint: utf8.encode(head.checkpoint),
      checkpointEtag: weakTag(`checkpoint|${version}`),
    };
    this.last = { version, served };
    return served;
  }
}

const utf8 = new TextEncoder();

export async function readLeaf(deps: RecordDeps, index: number): Promise<StoredLeaf> {
  const leaf = await deps.store.leaf(index);
  if (!leaf)
    throw new NotFoundError(
      `there is no leaf ${index}: the log holds ${await deps.store.treeSize()} leaves, numbered from 0`,
    );
  return leaf;
}

/** Leaves [start, end), at most `max` of them, all below the current tree size. */
export async function readLeaves(deps: RecordDeps, start: number, end: number, max: number): Promise<StoredLeaf[]> {
  const size = await deps.store.treeSize();
  if (end <= start) throw invalid('end', `end (${end}) must be greater than start (${start})`);
  if (end - start > max) throw invalid('end', `ask for at most ${max} leaves at a time (end − start ≤ ${max})`);
  if (end > size) throw invalid('end', `end ${end} is beyond the log, which holds ${size} leaves`);
  return deps.store.leaves(start, end - start);
}

/** RFC 9162 §2.1.3 inclusion proof of leaf `index` in the tree of `size` (default: the current size). */
export async function readInclusionProof(deps: RecordDeps, index: number, size: number | undefined) {
  const treeSize = await deps.store.treeSize();
  const n = size ?? treeSize;
  if (n > treeSize) throw invalid('size', `size ${n} is larger than the log (${treeSize} leaves)`);
  if (index >= n) throw invalid('index', `index ${index} is not in a tree of ${n} leaves; it must be below the size`);
  const [leaf] = await deps.store.nodeHashes([{ level: 0, index }]);
  return {
    index,
    size: n,
    leaf_hash: toBase64(leaf!),
    hashes: await proofHashes(deps, inclusionProofCoords(index, n)),
  };
}

/** RFC 9162 §2.1.4 consistency proof between two sizes. A proof from size 0 proves nothing and is refused. */
export async function readConsistencyProof(deps: RecordDeps, from: number, to: number | undefined) {
  const treeSize = await deps.store.treeSize();
  const n = to ?? treeSize;
  if (n > treeSize) throw invalid('to', `to ${n} is larger than the log (${treeSize} leaves)`);
  if (from < 1)
    throw invalid(
      'from',
      'from must be at least 1: every tree is consistent with the empty one, so there is nothing to prove',
    );
  if (from > n) throw invalid('from', `from ${from} is larger than to ${n}`);
  return { from, to: n, hashes: await proofHashes(deps, consistencyProofCoords(from, n)) };
}

async function proofHashes(deps: RecordDeps, covers: NodeCoord[][]): Promise<string[]> {
  const coords = covers.flat();
  const hashes = await deps.store.nodeHashes(coords);
  const byCoord = new Map(coords.map((c, i) => [`${c.level}/${c.index}`, hashes[i]!]));
  return assembleProof(covers, (c) => byCoord.get(`${c.level}/${c.index}`)!).map(toBase64);
}

function invalid(param: string, msg: string): ValidationError {
  return new ValidationError([{ loc: ['query', param], msg, type: 'value_error' }]);
}
