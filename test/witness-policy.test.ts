/**
 * A verifier's k-of-n witness policy over what a log says its witnesses cosigned: each cosigned
 * checkpoint must carry the log's signature and the witness's cosignature, and be the verified tree,
 * an older one proven consistent with it, or a newer one it is proven consistent with (the log grew
 * while the verifier read it). Another history is a split view and counts for nothing.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCheckpoint } from '../src/notary/checkpoint.js';
import { cosign, cosignerVkey, witnessPolicy } from '../src/notary/cosignature.js';
import { leafHash } from '../src/notary/hash.js';
import { consistencyProof, merkleTreeHash } from '../src/notary/merkle.js';
import { noteSigner, noteVerifier } from '../src/notary/note.js';
import { checkWitnessPolicy } from '../src/operations/witness-policy.js';
import type { WitnessRecord } from '../src/storage/store.js';

const ORIGIN = 'example.com/log';
const logKeys = generateKeyPairSync('ed25519');
const signer = noteSigner(ORIGIN, logKeys.privateKey);
const log = { verifiers: [noteVerifier(ORIGIN, logKeys.publicKey)], origin: ORIGIN };
const leaves = Array.from({ length: 40 }, (_, i) => leafHash(new TextEncoder().encode(`leaf ${i}`)));
const forked = leaves.map((l, i) => (i === 3 ? leafHash(new TextEncoder().encode('another leaf 3')) : l));

function witness(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    name,
    vkey: cosignerVkey(name, publicKey),
    /** What the log would keep for this witness after it cosigned `size` leaves of `tree`. */
    cosigned(size: number, tree = leaves, t = 1_800_000_000): WitnessRecord {
      const note = signCheckpoint(ORIGIN, size, merkleTreeHash(tree.slice(0, size)), signer);
      const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
      return {
        witness: name,
        cosigned: { tree_size: size, note: note + cosign(text, name, privateKey, t), timestamp: t },
        refusal: null,
        updated_at: '2027-01-15T08:00:00Z',
      };
    },
  };
}

const head = (size: number) => ({ size, root: merkleTreeHash(leaves.slice(0, size)) });
const proofs = (from: number, to: number) => Promise.resolve(consistencyProof(leaves, from, to));

describe('checkWitnessPolicy', () => {
  const a = witness('a.example/w');
  const b = witness('b.example/w');
  const c = witness('c.example/w');

  it('counts the verified tree, an older tree proven consistent, and a newer one the verified tree is consistent with', async () => {
    const report = await checkWitnessPolicy(
      witnessPolicy([a.vkey, b.vkey, c.vkey], undefined),
      [a.cosigned(30), b.cosigned(17), c.cosigned(40)],
      log,
      head(30),
      proofs,
    );
    expect(report).toMatchObject({ counted: 3, threshold: 3, met: true });
    expect(report.findings.map((f) => f.sentence)).toEqual([
      'a.example/w: cosigned size 30 at 2027-01-15T08:00:00Z (the verified head)',
      'b.example/w: cosigned size 17 at 2027-01-15T08:00:00Z, consistent with the verified tree of 30 leaves',
      'c.example/w: cosigned size 40 at 2027-01-15T08:00:00Z, consistent with the verified tree of 30 leaves',
    ]);
  });

  it('another history at any size is a split view, and a threshold above what remains fails', async () => {
    const policy = witnessPolicy([a.vkey, b.vkey, c.vkey], 2);
    const report = await checkWitnessPolicy(
      policy,
      [a.cosigned(30, forked), b.cosigned(17, forked), c.cosigned(30)],
      log,
      head(30),
      proofs,
    );
    expect(report).toMatchObject({ counted: 1, met: false });
    expect(report.findings[0]!.sentence).toMatch(
      /cosigned size 30 at .*, which is NOT consistent with the verified tree of 30 leaves: a split view/,
    );
    expect(report.findings[1]!.sentence).toMatch(/cosigned size 17 .* NOT consistent/);
  });

  it('takes nothing on the log’s word: a cosignature by another key, a note the log did not sign, a refusal', async () => {
    const impostor = witness('a.example/w'); // same name, another key
    const unsigned = b.cosigned(30);
    unsigned.cosigned!.note = unsigned.cosigned!.note.replace(/\u2014 example\.com\/log [^\n]+\n/, '');
    const refused: WitnessRecord = {
      witness: c.name,
      cosigned: null,
      refusal: { tree_size: 30, status: 422, reason: '422: inconsistent', at: '2027-01-15T08:00:00Z' },
      updated_at: '2027-01-15T08:00:00Z',
    };
    const report = await checkWitnessPolicy(
      witnessPolicy([a.vkey, b.vkey, c.vkey], 1),
      [impostor.cosigned(30), unsigned, refused],
      log,
      head(30),
      proofs,
    );
    expect(report).toMatchObject({ counted: 0, met: false });
    expect(report.findings.map((f) => f.sentence)).toEqual([
      'a.example/w: the checkpoint the log gives for it carries no cosignature by its key',
      expect.stringMatching(/^b\.example\/w: its cosigned checkpoint does not verify/) as unknown,
      'c.example/w: no cosigned checkpoint of this log; the log reports its last answer, for size 30: 422: inconsistent',
    ]);
  });
});
