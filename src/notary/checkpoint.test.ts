import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CheckpointError, checkpointText, parseCheckpoint, signCheckpoint, verifyCheckpoint } from './checkpoint.js';
import { EMPTY_ROOT, leafHash, toBase64, toHex } from './hash.js';
import { noteSigner, noteVerifier, signNote } from './note.js';

const ORIGIN = 'tended.example/observations/v1';
const root = leafHash(Buffer.from('root'));
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signer = noteSigner(ORIGIN, privateKey);
const verifier = noteVerifier(ORIGIN, publicKey);

describe('checkpoint text', () => {
  it('is origin, size, base64 root, one per line, no extensions', () => {
    expect(checkpointText(ORIGIN, 20852163, root)).toBe(`${ORIGIN}\n20852163\n${toBase64(root)}\n`);
    expect(checkpointText(ORIGIN, 0, EMPTY_ROOT)).toBe(`${ORIGIN}\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`);
  });

  it('parses its own output, and tolerates extension lines without mixing them in', () => {
    const parsed = parseCheckpoint(checkpointText(ORIGIN, 7, root));
    expect(parsed.origin).toBe(ORIGIN);
    expect(parsed.size).toBe(7);
    expect(toHex(parsed.root)).toBe(toHex(root));
    expect(parseCheckpoint(`${ORIGIN}\n7\n${toBase64(root)}\next one\n`).extensions).toEqual(['ext one']);
  });

  it('refuses malformed sizes, roots and shapes', () => {
    const r = toBase64(root);
    const bad = [
      `${ORIGIN}\n07\n${r}\n`,
      `${ORIGIN}\n-1\n${r}\n`,
      `${ORIGIN}\n+1\n${r}\n`,
      `${ORIGIN}\n 1\n${r}\n`,
      `${ORIGIN}\n0x10\n${r}\n`,
      `${ORIGIN}\n1e3\n${r}\n`,
      `${ORIGIN}\n9007199254740992\n${r}\n`,
      `${ORIGIN}\n\n${r}\n`,
      `${ORIGIN}\n1\n${r.slice(0, -4)}\n`,
      `${ORIGIN}\n1\n${toBase64(Buffer.alloc(33))}\n`,
      `${ORIGIN}\n1\n${r}`,
      `${ORIGIN}\n1\n${r}\n\n`,
      `\n1\n${r}\n`,
      `${ORIGIN}\n1\n`,
    ];
    for (const t of bad) expect(() => parseCheckpoint(t), JSON.stringify(t)).toThrow(CheckpointError);
    expect(() => checkpointText(ORIGIN, -1, root)).toThrow(CheckpointError);
    expect(() => checkpointText(ORIGIN, 1.5, root)).toThrow(CheckpointError);
    expect(() => checkpointText(ORIGIN, 1, new Uint8Array(31))).toThrow(CheckpointError);
    expect(() => checkpointText('a\nb', 1, root)).toThrow(CheckpointError);
  });
});

describe('signed checkpoints', () => {
  it('sign and verify, taking size and root from the verified note', () => {
    const note = signCheckpoint(ORIGIN, 42, root, signer);
    expect(note.startsWith(`${ORIGIN}\n42\n`)).toBe(true);
    expect(note).toMatch(new RegExp(`\\n\\n\u2014 ${ORIGIN} [A-Za-z0-9+/]+=*\\n$`));
    const got = verifyCheckpoint(note, verifier, ORIGIN);
    expect(got.size).toBe(42);
    expect(toHex(got.root)).toBe(toHex(root));
  });

  it('refuses a key whose name is not the origin', () => {
    const other = noteSigner('someone.else/log', privateKey);
    expect(() => signCheckpoint(ORIGIN, 1, root, other)).toThrow(CheckpointError);
  });

  it('refuses another origin, another key, and edited text', () => {
    const note = signCheckpoint(ORIGIN, 42, root, signer);
    expect(() => verifyCheckpoint(note, verifier, 'tended.example/other')).toThrow(CheckpointError);
    const stranger = generateKeyPairSync('ed25519');
    expect(() => verifyCheckpoint(note, noteVerifier(ORIGIN, stranger.publicKey), ORIGIN)).toThrow(CheckpointError);
    expect(() => verifyCheckpoint(note.replace('\n42\n', '\n43\n'), verifier, ORIGIN)).toThrow(CheckpointError);
  });

  it('a witness cosignature from an unknown key does not disturb verification', () => {
    const note = signCheckpoint(ORIGIN, 5, root, signer);
    const witness = noteSigner('witness.example', generateKeyPairSync('ed25519').privateKey);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const cosigned = note + signNote(text, [witness]).slice(text.length + 1);
    expect(verifyCheckpoint(cosigned, verifier, ORIGIN).size).toBe(5);
  });

  it('a correctly signed but malformed body is still refused', () => {
    const note = signNote(`${ORIGIN}\n007\n${toBase64(root)}\n`, [signer]);
    expect(() => verifyCheckpoint(note, verifier, ORIGIN)).toThrow(CheckpointError);
  });
});
