import { parseCheckpoint } from '../notary/checkpoint.js';
import { verifyCosignatures, type Cosigner } from '../notary/cosignature.js';
import { assembleProof, consistencyProofCoords } from '../notary/merkle.js';
import { NoteError, splitNote } from '../notary/note.js';
import type { WitnessRecord } from '../storage/store.js';
import { addCheckpoint, addCheckpointBody, type WitnessAnswer } from '../upstreams/tlog-witness.js';
import type { RecordDeps } from './deps.js';

/**
 * Sends the log's latest checkpoint to a configured witness (C2SP tlog-witness) and keeps what it
 * answers: its cosignature, verified and alone (lines of other keys are dropped), or its refusal.
 *
 * The old size sent is the size the witness last cosigned (0 before its first). A 409 names the
 * size it holds instead: the checkpoint is sent once more with a proof from there, never more.
 * A 422 says the log's new tree is not consistent with the one the witness saw: the log forked (or
 * its history was rewritten) and the witness caught it. That is kept and reported as such, and the
 * same checkpoint is not sent again; only a new checkpoint is.
 */

export interface ConfiguredWitness {
  cosigner: Cosigner;
  /** The witness's submission prefix: `<url>/add-checkpoint` is posted to. */
  url: string;
}

export type WitnessOutcome =
  | { witness: string; kind: 'cosigned'; tree_size: number; timestamp: number }
  | { witness: string; kind: 'current'; tree_size: number }
  | {
      witness: string;
      kind: 'refused';
      tree_size: number;
      status: number | null;
      reason: string;
      /** A 422, or a witness ahead of the log: what a split view looks like from here. */
      inconsistent: boolean;
    };

export interface WitnessOptions {
  timeoutMs: number;
  userAgent: string;
}

export async function witnessLatestCheckpoint(
  deps: RecordDeps,
  witness: ConfiguredWitness,
  options: WitnessOptions,
): Promise<WitnessOutcome | null> {
  const head = await deps.store.latestHead();
  // The empty tree has nothing a witness could check; its first checkpoint with a leaf is sent.
  if (!head || head.tree_size === 0) return null;
  const name = witness.cosigner.name;
  const record = (await deps.store.witnessRecords()).find((r) => r.witness === name);
  const { text } = splitNote(head.checkpoint);
  if (record?.cosigned && splitNote(record.cosigned.note).text === text)
    return { witness: name, kind: 'current', tree_size: head.tree_size };
  if (record?.refusal && isInconsistency(record.refusal) && record.refusal.tree_size === head.tree_size) {
    // Never again for the same checkpoint: the answer would be the same, and it is on record.
    return { witness: name, kind: 'refused', ...record.refusal, inconsistent: true };
  }

  const size = head.tree_size;
  const send = async (oldSize: number): Promise<WitnessAnswer | { kind: 'ahead' }> => {
    if (oldSize > size) return { kind: 'ahead' };
    const proof =
      oldSize === 0 || oldSize === size
        ? []
        : assembleProof(
            consistencyProofCoords(oldSize, size),
            lookupFrom(await deps.store.nodeHashes(consistencyProofCoords(oldSize, size).flat())),
          );
    return addCheckpoint(witness.url, addCheckpointBody(oldSize, proof, head.checkpoint), options);
  };

  let answer = await send(record?.cosigned?.tree_size ?? 0);
  if (answer.kind === 'conflict') answer = await send(answer.size);

  const at = deps.clock.now().toISOString();
  const refuse = async (status: number | null, reason: string, inconsistent: boolean): Promise<WitnessOutcome> => {
    const refusal = { tree_size: size, status, reason, at };
    await deps.store.putWitnessRecord({ witness: name, cosigned: record?.cosigned ?? null, refusal, updated_at: at });
    return { witness: name, kind: 'refused', ...refusal, inconsistent };
  };

  switch (answer.kind) {
    case 'ahead':
      return refuse(409, `${AHEAD} than the log's ${size} leaves: it saw another history`, true);
    case 'conflict':
      return refuse(409, `the witness holds size ${answer.size} again after a proof from there`, false);
    case 'unreachable':
      return refuse(null, `unreachable: ${answer.reason}`, false);
    case 'refused':
      return refuse(answer.status, refusalSentence(answer.status, answer.reason), answer.status === 422);
    case 'cosigned': {
      let found;
      try {
        found = verifyCosignatures(head.checkpoint + answer.lines, [witness.cosigner]);
      } catch (error) {
        return refuse(200, `answered 200 with a cosignature that does not verify (${(error as Error).message})`, false);
      }
      const own = found[0];
      if (!own) return refuse(200, 'answered 200 without a cosignature by its configured key', false);
      const record: WitnessRecord = {
        witness: name,
        cosigned: { tree_size: size, note: head.checkpoint + own.line, timestamp: own.timestamp },
        refusal: null,
        updated_at: at,
      };
      await deps.store.putWitnessRecord(record);
      return { witness: name, kind: 'cosigned', tree_size: size, timestamp: own.timestamp };
    }
  }
}

const AHEAD = 'the witness holds a larger tree of this origin';

/** A refusal that says the log's history is not the one the witness saw: 422, or a witness ahead of the log. */
function isInconsistency(refusal: { status: number | null; reason: string }): boolean {
  return refusal.status === 422 || (refusal.status === 409 && refusal.reason.startsWith(AHEAD));
}

function lookupFrom(hashes: Uint8Array[]) {
  let i = 0;
  // assembleProof asks for the covers' nodes in the order flat() listed them.
  return () => hashes[i++]!;
}

function refusalSentence(status: number, said: string): string {
  const why: Record<number, string> = {
    400: 'the witness found the request malformed',
    403: 'the witness does not trust the key that signed the checkpoint',
    404: 'the witness does not know this log (its origin is not configured there)',
    422: 'the witness refused the checkpoint as inconsistent with the tree it saw: the log forked or was rewritten',
  };
  return `${status}: ${why[status] ?? 'the witness refused'}${said ? ` (it said: ${said})` : ''}`;
}

/** The size and root a cosigned note states, from its text. */
export function cosignedTree(note: string): { size: number; root: Uint8Array } {
  try {
    const { size, root } = parseCheckpoint(splitNote(note).text);
    return { size, root };
  } catch (error) {
    throw new NoteError(`a cosigned checkpoint does not parse: ${(error as Error).message}`);
  }
}
