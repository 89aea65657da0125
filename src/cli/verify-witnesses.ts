import { witnessCount, witnessPolicy, type WitnessPolicy } from '../notary/cosignature.js';
import { hashFromBase64, type Hash } from '../notary/hash.js';
import { NoteError, type NoteVerifier } from '../notary/note.js';
import { checkWitnessPolicy } from '../operations/witness-policy.js';
import type { WitnessRecord } from '../storage/store.js';
import type { CliWiring } from './wiring.js';

/**
 * `tended verify --witness VKEY … [--witness-threshold K]`: after the log itself verifies, the
 * verifier's own witness policy (k of n cosigner keys it names) is checked against what the log
 * says its witnesses cosigned. Each named witness gets a line: the size it cosigned and when, or
 * why it does not count. Fewer than K → exit 1, as a log that does not verify.
 */

/** The policy the flags name, or a sentence saying what is wrong with them. */
export function policyFromFlags(
  witness: string[] | undefined,
  threshold: string | undefined,
): WitnessPolicy | null | string {
  if (!witness || witness.length === 0) {
    return threshold === undefined
      ? null
      : '--witness-threshold needs the witnesses it counts: --witness VKEY, repeated';
  }
  let k: number | undefined;
  if (threshold !== undefined) {
    const count = witnessCount(threshold);
    if (count === null) return `--witness-threshold is a whole number of witnesses, got "${threshold.slice(0, 20)}"`;
    k = count;
  }
  try {
    return witnessPolicy(witness, k);
  } catch (error) {
    if (error instanceof NoteError)
      return `${error.message}; a --witness is a cosigner vkey, name+keyid+base64 of 0x04 and an Ed25519 key`;
    throw error;
  }
}

export interface WitnessSource {
  records(): Promise<WitnessRecord[]>;
  consistencyProof(from: number, to: number): Promise<Hash[]>;
}

/** Prints the policy's findings; 0 when it is met, 1 when not. */
export async function reportWitnessPolicy(
  wiring: CliWiring,
  policy: WitnessPolicy,
  source: WitnessSource,
  log: { verifiers: NoteVerifier[]; origin: string },
  verified: { tree_size: number; root_hash: string },
): Promise<number> {
  const report = await checkWitnessPolicy(
    policy,
    await source.records(),
    log,
    { size: verified.tree_size, root: hashFromBase64(verified.root_hash) },
    (from, to) => source.consistencyProof(from, to),
  );
  for (const f of report.findings) wiring.stdout.write(`witness ${f.counted ? 'ok' : 'NOT counted'}: ${f.sentence}\n`);
  if (report.met) {
    wiring.stdout.write(
      `witness policy met: ${report.counted} of ${policy.witnesses.length} named witnesses cosigned, ${report.threshold} required\n`,
    );
    return 0;
  }
  wiring.stderr.write(
    `tended: the witness policy is NOT met: ${report.counted} of the ${policy.witnesses.length} named witnesses cosigned a checkpoint consistent with the verified log, ${report.threshold} required\n`,
  );
  return 1;
}
