import { hashFromBase64, toBase64 } from '../notary/hash.js';
import { isCanonicalLeaf } from '../notary/leaf.js';
import { CompactRange, verifyConsistency } from '../notary/merkle.js';
import type { NoteVerifier } from '../notary/note.js';
import { AuditError, CANONICAL_SAMPLE, verifySignedCheckpoint, type AuditReport } from './audit-log.js';
import type { ExportHeader } from './transfer-log.js';

export interface SegmentReport extends AuditReport {
  start: number;
  /** The size of the tree the signed checkpoint is for: tree_size, or a later one reached by the consistency proof. */
  checkpoint_size: number;
}

/**
 * Checks an export that covers leaves [start, tree_size) on its own, with nothing but its header
 * and a pinned key: the frontier (the tree's right edge at `start`) plus the leaves rebuild the
 * root at tree_size, which must be the signed checkpoint's root or, when the checkpoint is for a
 * later tree, lead to it by the header's consistency proof. A forged frontier cannot pass: it
 * would have to hash to the signed root.
 */
export async function auditSegment(
  header: ExportHeader,
  leaves: AsyncIterable<Uint8Array>,
  verifier: NoteVerifier | NoteVerifier[],
  origin: string,
): Promise<SegmentReport> {
  const signed = verifySignedCheckpoint(header.checkpoint, verifier, origin);
  if (
    !Number.isSafeInteger(header.start) ||
    !Number.isSafeInteger(header.tree_size) ||
    header.start < 0 ||
    header.tree_size < header.start
  ) {
    throw new AuditError(
      `the header's start ${header.start} and tree_size ${header.tree_size} do not name a range of leaves`,
    );
  }
  let range: CompactRange;
  try {
    range = new CompactRange(header.start, (header.frontier ?? []).map(hashFromBase64));
  } catch (error) {
    throw new AuditError(
      `the header's frontier is not the right edge of a tree of ${header.start} leaves: ${(error as Error).message}`,
    );
  }
  for await (const bytes of leaves) {
    if ((range.size - header.start) % CANONICAL_SAMPLE === 0 && !isCanonicalLeaf(bytes))
      throw new AuditError(`leaf ${range.size} is not RFC 8785 canonical JSON`);
    range.pushLeaf(bytes);
    if (range.size > header.tree_size)
      throw new AuditError(`there are more leaves than the ${header.tree_size - header.start} the header announces`);
  }
  if (range.size !== header.tree_size)
    throw new AuditError(`the header announces leaves up to ${header.tree_size} but the file ends at ${range.size}`);
  const root = range.root();
  if (signed.size === header.tree_size) {
    if (toBase64(root) !== toBase64(signed.root)) {
      throw new AuditError(
        `the frontier and leaves give root ${toBase64(root)}, but the signed checkpoint says ${toBase64(signed.root)}`,
      );
    }
  } else {
    let proof: Uint8Array[];
    try {
      proof = (header.consistency ?? []).map(hashFromBase64);
    } catch (error) {
      throw new AuditError(`the consistency proof is not a list of base64 hashes: ${(error as Error).message}`);
    }
    if (signed.size < header.tree_size || !verifyConsistency(header.tree_size, signed.size, proof, root, signed.root)) {
      throw new AuditError(
        `the root ${toBase64(root)} of ${header.tree_size} leaves is not consistent with the signed checkpoint of ${signed.size} leaves`,
      );
    }
  }
  return {
    origin,
    start: header.start,
    tree_size: header.tree_size,
    checkpoint_size: signed.size,
    root_hash: toBase64(root),
    heads_checked: 0,
  };
}
