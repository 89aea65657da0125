import { verifyCheckpoint } from '../notary/checkpoint.js';
import { verifyCosignatures, type WitnessPolicy } from '../notary/cosignature.js';
import { equalBytes, type Hash } from '../notary/hash.js';
import { verifyConsistency } from '../notary/merkle.js';
import type { NoteVerifier } from '../notary/note.js';
import type { WitnessRecord } from '../storage/store.js';

/**
 * A verifier's witness policy (k of n named cosigner keys) applied to what the log says its
 * witnesses cosigned. Nothing the log says is taken on its word: each witness's note must carry
 * the log's signature and the witness's cosignature, both verified with keys the verifier chose,
 * and the cosigned tree must be consistent with the head the verifier checked (the same root at
 * the same size, or a consistency proof from the cosigned size). The log's own account of a
 * witness's refusal is shown as the log's account, and counts for nothing.
 */

export interface WitnessFinding {
  witness: string;
  /** The size the witness cosigned and that checked out; null when none did. */
  tree_size: number | null;
  /** When it cosigned (RFC 3339), from its signed timestamp. */
  cosigned_at: string | null;
  counted: boolean;
  sentence: string;
}

export interface PolicyReport {
  findings: WitnessFinding[];
  counted: number;
  threshold: number;
  met: boolean;
}

export async function checkWitnessPolicy(
  policy: WitnessPolicy,
  records: WitnessRecord[],
  log: { verifiers: NoteVerifier[]; origin: string },
  head: { size: number; root: Hash },
  consistencyProof: (from: number, to: number) => Promise<Hash[]>,
): Promise<PolicyReport> {
  const findings: WitnessFinding[] = [];
  for (const witness of policy.witnesses) {
    const name = witness.name;
    const record = records.find((r) => r.witness === name);
    const said = record?.refusal
      ? `; the log reports its last answer, for size ${record.refusal.tree_size}: ${record.refusal.reason}`
      : '';
    const none = (why: string): WitnessFinding => ({
      witness: name,
      tree_size: null,
      cosigned_at: null,
      counted: false,
      sentence: `${why}${said}`,
    });
    if (!record?.cosigned) {
      findings.push(none(`${name}: no cosigned checkpoint of this log`));
      continue;
    }
    let tree: { size: number; root: Hash };
    let cosigned;
    try {
      tree = verifyCheckpoint(record.cosigned.note, log.verifiers, log.origin);
      cosigned = verifyCosignatures(record.cosigned.note, [witness])[0];
    } catch (error) {
      findings.push(none(`${name}: its cosigned checkpoint does not verify (${(error as Error).message})`));
      continue;
    }
    if (!cosigned) {
      findings.push(none(`${name}: the checkpoint the log gives for it carries no cosignature by its key`));
      continue;
    }
    const at = new Date(cosigned.timestamp * 1000).toISOString().replace('.000Z', 'Z');
    let consistent: boolean;
    if (tree.size === head.size) consistent = equalBytes(tree.root, head.root);
    // A cosigned empty tree proves nothing.
    else if (tree.size === 0) consistent = false;
    else if (tree.size < head.size)
      consistent = verifyConsistency(
        tree.size,
        head.size,
        await consistencyProof(tree.size, head.size),
        tree.root,
        head.root,
      );
    // The log grew while the verifier read it and a witness cosigned the larger tree: the proof runs the other way.
    else
      consistent =
        head.size > 0 &&
        verifyConsistency(head.size, tree.size, await consistencyProof(head.size, tree.size), head.root, tree.root);
    if (!consistent) {
      findings.push(
        none(
          `${name}: cosigned size ${tree.size} at ${at}, which is NOT consistent with the verified tree of ${head.size} leaves: a split view`,
        ),
      );
      continue;
    }
    findings.push({
      witness: name,
      tree_size: tree.size,
      cosigned_at: at,
      counted: true,
      sentence: `${name}: cosigned size ${tree.size} at ${at}${tree.size === head.size ? ' (the verified head)' : `, consistent with the verified tree of ${head.size} leaves`}`,
    });
  }
  const counted = findings.filter((f) => f.counted).length;
  return { findings, counted, threshold: policy.threshold, met: counted >= policy.threshold };
}
