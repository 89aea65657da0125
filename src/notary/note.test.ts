import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHex } from './hash.js';
import {
  NoteError,
  ed25519PrivateKeyFromSeed,
  ed25519PublicKeyFromRaw,
  noteSigner,
  noteVerifier,
  openNote,
  parseSignerKey,
  parseVerifierKey,
  rawEd25519PublicKey,
  signNote,
  verifierKey,
} from './note.js';

const VECTORS = new URL('../../test/vectors/', import.meta.url);
const v = JSON.parse(readFileSync(new URL('note/vectors.json', VECTORS), 'utf8')) as {
  go: {
    skey: string;
    vkey: string;
    enochVkey: string;
    text: string;
    signed: string;
    peterSig: string;
    enochSig: string;
    badVkeys: string[];
  };
  c2sp: { vkey: string; note: string; text: string };
  sumdb: { vkey: string };
};
const rfc8032 = JSON.parse(readFileSync(new URL('rfc8032/ed25519.json', VECTORS), 'utf8')) as {
  vectors: { name: string; secretKeyHex: string; publicKeyHex: string; messageHex: string; signatureHex: string }[];
};

const { go } = v;
const peter = parseVerifierKey(go.vkey);
const enoch = parseVerifierKey(go.enochVkey);

describe('golang/mod sumdb/note vectors', () => {
  it('signs the PeterNeumann text byte for byte from the Go skey', () => {
    const signer = parseSignerKey(go.skey);
    expect(signer.name).toBe('PeterNeumann');
    expect(toHex(signer.keyId)).toBe('c74f20a3');
    expect(signNote(go.text, [signer])).toBe(go.signed);
  });

  it('derives the Go vkey from the same private key', () => {
    const seed = Buffer.from(go.skey.split('+').slice(4).join('+'), 'base64').subarray(1);
    const priv = ed25519PrivateKeyFromSeed(seed);
    expect(verifierKey('PeterNeumann', priv)).toBe(go.vkey);
  });

  it('opens with one known key, ignoring the unknown signer', () => {
    const note = `${go.text}\n${go.peterSig}${go.enochSig}`;
    expect(openNote(note, [peter])).toEqual({ text: go.text, verifiedBy: ['PeterNeumann'] });
    expect(openNote(note, [peter, enoch]).verifiedBy).toEqual(['PeterNeumann', 'EnochRoot']);
    expect(openNote(Buffer.from(note), [enoch]).verifiedBy).toEqual(['EnochRoot']);
    expect(() => openNote(note, [])).toThrow(/no verifiable signatures/);
  });

  it('refuses more than 100 signatures, accepts 100', () => {
    expect(openNote(`${go.text}\n${go.peterSig.repeat(100)}`, [peter]).verifiedBy).toEqual(['PeterNeumann']);
    expect(() => openNote(`${go.text}\n${go.peterSig.repeat(101)}`, [peter])).toThrow(NoteError);
    expect(() => openNote(`${go.text}\n${go.peterSig.repeat(101)}`, [])).toThrow(NoteError);
  });

  it('a known key whose signature fails rejects the whole note', () => {
    const corrupt = `${go.peterSig.slice(0, 60)}ABCD${go.peterSig.slice(60)}`;
    expect(() => openNote(`${go.text}\n${corrupt}`, [peter])).toThrow(
      /invalid signature for key PeterNeumann\+c74f20a3/,
    );
    expect(() => openNote(`${go.text}\n${go.enochSig}${corrupt}`, [peter, enoch])).toThrow(NoteError);
  });

  it('duplicated and corrupt signatures from unknown keys do not matter', () => {
    const enochABCD = `${go.enochSig.slice(0, 60)}ABCD${go.enochSig.slice(60)}`;
    const note = `${go.text}\n${go.peterSig}${go.peterSig}${go.enochSig}${go.enochSig}${enochABCD}`;
    expect(openNote(note, [peter]).verifiedBy).toEqual(['PeterNeumann']);
  });

  it('refuses malformed notes', () => {
    const bad = [
      go.text,
      `${go.text}\n`,
      `${go.text}\n${go.peterSig.slice(0, -1)}`,
      `\u0001${go.text}\n${go.peterSig}`,
      `${go.text}\n\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${go.text}\n${go.peterSig}Unexpected line.\n`,
      `${go.text}\n${go.peterSig}\n`,
      `\uD800${go.text}\n${go.peterSig}`,
    ];
    for (const note of bad) expect(() => openNote(note, [peter]), JSON.stringify(note)).toThrow(NoteError);
    const withFF = Buffer.concat([Buffer.from([0xff]), Buffer.from(`${go.text}\n${go.peterSig}`)]);
    expect(() => openNote(withFF, [peter])).toThrow(NoteError);
  });

  it('ambiguous verifiers for a present signature are an error', () => {
    expect(() => openNote(`${go.text}\n${go.enochSig}`, [enoch, peter, enoch])).toThrow(
      /ambiguous key EnochRoot\+af0cfe78/,
    );
    expect(openNote(`${go.text}\n${go.peterSig}`, [enoch, peter, enoch]).verifiedBy).toEqual(['PeterNeumann']);
  });

  it('a signature under a known name but another key ID is an unknown key', () => {
    const misnamed = go.peterSig.replace('PeterNeumann', 'CarmenSandiego');
    expect(() => openNote(`${go.text}\n${misnamed}`, [peter])).toThrow(/no verifiable signatures/);
    const wrongId = go.peterSig.replace('x08g', 'xxxx');
    expect(() => openNote(`${go.text}\n${wrongId}`, [peter])).toThrow(/no verifiable signatures/);
  });

  it('refuses every truncation and one-character change of the vkey and skey', () => {
    for (const [key, parse] of [
      [go.vkey, parseVerifierKey],
      [go.skey, parseSignerKey],
    ] as const) {
      for (let i = 0; i <= key.length; i++) {
        for (let j = i + 1; j <= key.length; j++) {
          if (i === 0 && j === key.length) continue;
          expect(() => parse(key.slice(i, j)), key.slice(i, j)).toThrow(NoteError);
        }
      }
      for (let i = 0; i < key.length; i++) {
        const changed = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
        expect(() => parse(changed), changed).toThrow(NoteError);
      }
    }
    for (const bad of go.badVkeys) expect(() => parseVerifierKey(bad)).toThrow(NoteError);
  });

  it('splits vkeys only at the first two "+" (sum.golang.org key has "+" in its base64)', () => {
    const sumdb = parseVerifierKey(v.sumdb.vkey);
    expect(sumdb.name).toBe('sum.golang.org');
    expect(toHex(sumdb.keyId)).toBe('033de0ae');
  });
});

describe('C2SP signed-note example', () => {
  it('parses the example vkey and opens the example note', () => {
    const foo = parseVerifierKey(v.c2sp.vkey);
    expect(toHex(foo.keyId)).toBe('530d903a');
    expect(openNote(v.c2sp.note, [foo])).toEqual({ text: v.c2sp.text, verifiedBy: ['example.com/foo'] });
    expect(() => openNote(v.c2sp.note.replace('example message', 'example messagE'), [foo])).toThrow(NoteError);
  });
});

describe('RFC 8032 §7.1 Ed25519 through node:crypto', () => {
  it.each(rfc8032.vectors)('$name', (t) => {
    const priv = ed25519PrivateKeyFromSeed(Buffer.from(t.secretKeyHex, 'hex'));
    expect(toHex(rawEd25519PublicKey(priv))).toBe(t.publicKeyHex);
    const msg = Buffer.from(t.messageHex, 'hex');
    expect(sign(null, msg, priv).toString('hex')).toBe(t.signatureHex);
    const pub = ed25519PublicKeyFromRaw(Buffer.from(t.publicKeyHex, 'hex'));
    expect(verify(null, msg, pub, Buffer.from(t.signatureHex, 'hex'))).toBe(true);
    expect(verify(null, Buffer.concat([msg, Buffer.from([0])]), pub, Buffer.from(t.signatureHex, 'hex'))).toBe(false);
    // The same key through the note layer: its verifier accepts the vector signature.
    expect(noteVerifier('rfc8032', pub).verify(msg, Buffer.from(t.signatureHex, 'hex'))).toBe(true);
  });
});

describe('signers and verifiers from fresh keys', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const signer = noteSigner('tended.example/log', privateKey);
  const verifier = noteVerifier('tended.example/log', publicKey);

  it('round-trip, and the vkey text parses back to the same key ID', () => {
    const note = signNote('hello\n\nworld\n', [signer]);
    expect(openNote(note, [verifier]).text).toBe('hello\n\nworld\n');
    expect(toHex(parseVerifierKey(verifierKey('tended.example/log', publicKey)).keyId)).toBe(toHex(signer.keyId));
  });

  it('checks names, text and keys', () => {
    for (const name of ['', 'a b', 'a+b', 'tab\there', 'nbsp\u00a0', 'nel\u0085']) {
      expect(() => noteSigner(name, privateKey), name).toThrow(NoteError);
    }
    expect(() => signNote('no newline', [signer])).toThrow(NoteError);
    expect(() => signNote('bell\u0007\n', [signer])).toThrow(NoteError);
    expect(() => signNote('ok\n', [])).toThrow(NoteError);
    expect(() => noteSigner('x', publicKey)).toThrow(NoteError);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => noteVerifier('x', rsa.publicKey)).toThrow(NoteError);
    expect(verifier.verify(new Uint8Array(1), new Uint8Array(3))).toBe(false);
  });
});
