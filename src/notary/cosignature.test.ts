import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCheckpoint } from './checkpoint.js';
import { cosign, cosignerVkey, parseCosignerKey, verifyCosignatures, witnessPolicy } from './cosignature.js';
import { sha256 } from './hash.js';
import { noteSigner, verifierKey } from './note.js';

const logKeys = generateKeyPairSync('ed25519');
const note = signCheckpoint(
  'example.com/log',
  20,
  sha256(new Uint8Array([1])),
  noteSigner('example.com/log', logKeys.privateKey),
);
const text = note.slice(0, note.lastIndexOf('\n\n') + 1);

function witness(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { name, privateKey, vkey: cosignerVkey(name, publicKey) };
}

describe('tlog-cosignature v1 (Ed25519)', () => {
  it('a witness vkey is type 0x04 and parses back; a log’s note key (0x01) is not a witness key', () => {
    const w = witness('witness.example/w1');
    // Only the first two '+' separate fields: base64 has its own.
    const key = w.vkey.slice(w.vkey.indexOf('+', w.vkey.indexOf('+') + 1) + 1);
    expect(Buffer.from(key, 'base64')[0]).toBe(0x04);
    expect(parseCosignerKey(w.vkey).name).toBe('witness.example/w1');
    expect(() => parseCosignerKey(verifierKey('example.com/log', logKeys.publicKey))).toThrow(/type 0x04/);
    expect(() => parseCosignerKey(`${w.name}+00000000+${key}`)).toThrow(/does not match/);
  });

  it('signs "cosignature/v1\\ntime T\\n" + the checkpoint text, with T in the signature blob', () => {
    const w = witness('witness.example/w1');
    const line = cosign(text, w.name, w.privateKey, 1_679_315_147);
    const [found] = verifyCosignatures(note + line, [parseCosignerKey(w.vkey)]);
    expect(found).toEqual({ witness: w.name, timestamp: 1_679_315_147, line });
    const blob = Buffer.from(line.trim().split(' ')[2]!, 'base64');
    expect(blob.length).toBe(4 + 8 + 64);
    expect(blob.readBigUInt64BE(4)).toBe(1_679_315_147n);
  });

  it('ignores lines of keys not asked about, and refuses a line of an asked key that fails', () => {
    const w1 = witness('witness.example/w1');
    const w2 = witness('witness.example/w2');
    const withBoth = note + cosign(text, w1.name, w1.privateKey, 10) + cosign(text, w2.name, w2.privateKey, 11);
    expect(verifyCosignatures(withBoth, [parseCosignerKey(w2.vkey)]).map((c) => c.witness)).toEqual([w2.name]);
    // A cosignature over another checkpoint's text, or with its time changed, fails.
    const otherText = text.replace('\n20\n', '\n21\n');
    const wrong = cosign(otherText, w1.name, w1.privateKey, 10);
    expect(() => verifyCosignatures(note + wrong, [parseCosignerKey(w1.vkey)])).toThrow(/invalid cosignature/);
    const blob = Buffer.from(cosign(text, w1.name, w1.privateKey, 10).trim().split(' ')[2]!, 'base64');
    blob.writeBigUInt64BE(11n, 4);
    const moved = `\u2014 ${w1.name} ${blob.toString('base64')}\n`;
    expect(() => verifyCosignatures(note + moved, [parseCosignerKey(w1.vkey)])).toThrow(/invalid cosignature/);
  });

  it('a policy counts witnesses by name, 1 ≤ k ≤ n, default all', () => {
    const a = witness('a.example/w');
    const b = witness('b.example/w');
    expect(witnessPolicy([a.vkey, b.vkey], undefined).threshold).toBe(2);
    expect(witnessPolicy([a.vkey, b.vkey], 1).threshold).toBe(1);
    expect(() => witnessPolicy([a.vkey], 2)).toThrow(/between 1 and the 1/);
    expect(() => witnessPolicy([a.vkey, a.vkey], 1)).toThrow(/own name/);
  });
});
