/**
 * C2SP signed notes (https://github.com/C2SP/C2SP/blob/main/signed-note.md), Ed25519 only.
 *
 *     <text, ending in \n>
 *     <blank line>
 *     — <key name> base64(key ID[4] ‖ signature)
 *
 * Key IDs are SHA-256(name ‖ 0x0A ‖ 0x01 ‖ pub32)[:4], the C2SP formula (not a hash of the SPKI:
 * rekor#2062). Verification follows the spec and C2SP#241: signatures from unknown keys are
 * ignored, one known-key signature must verify, and any known-key signature that fails rejects
 * the whole note.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { equalBytes, fromBase64, sha256, toBase64, toHex } from './hash.js';

export class NoteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NoteError';
  }
}

export interface NoteSigner {
  name: string;
  keyId: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

export interface NoteVerifier {
  name: string;
  keyId: Uint8Array;
  verify(message: Uint8Array, sig: Uint8Array): boolean;
}

/** Go's note package caps at 100; the spec requires accepting at least 16. */
export const MAX_SIGNATURES = 100;

const ALG_ED25519 = 0x01;
const SIG_PREFIX = '\u2014 ';
// PKCS#8 wrapping of a bare 32-byte Ed25519 seed (RFC 8410); node:crypto imports keys only as
// DER/PEM/JWK, and Go's skey format carries just the seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Key names MUST be non-empty and contain no Unicode spaces or '+'; control characters are
// refused too because the whole note must be free of them. \s misses U+0085, so it is listed.
const BAD_NAME_CHAR = /[\s\u0085+\u0000-\u001f\u007f]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL_EXCEPT_NEWLINE = /[\u0000-\u0009\u000b-\u001f]/;

export function isValidKeyName(name: string): boolean {
  return typeof name === 'string' && name.length > 0 && !BAD_NAME_CHAR.test(name) && !LONE_SURROGATE.test(name);
}

function assertKeyName(name: string): void {
  if (!isValidKeyName(name)) throw new NoteError(`invalid key name ${JSON.stringify(name)}`);
}

/** C2SP key ID for an Ed25519 key. */
export function ed25519KeyId(name: string, publicKey32: Uint8Array): Uint8Array {
  const name8 = utf8.encode(name);
  const input = new Uint8Array(name8.length + 2 + publicKey32.length);
  input.set(name8, 0);
  input[name8.length] = 0x0a;
  input[name8.length + 1] = ALG_ED25519;
  input.set(publicKey32, name8.length + 2);
  return new Uint8Array(sha256(input).subarray(0, 4));
}

/** The raw 32-byte Ed25519 public key of a public or private KeyObject. */
export function rawEd25519PublicKey(key: KeyObject): Uint8Array {
  if (key.asymmetricKeyType !== 'ed25519') throw new NoteError('only Ed25519 keys are supported');
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const { x } = pub.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new NoteError('could not export the Ed25519 public key');
  const raw = Buffer.from(x, 'base64url');
  if (raw.length !== 32) throw new NoteError('Ed25519 public key is not 32 bytes');
  return new Uint8Array(raw);
}

export function ed25519PublicKeyFromRaw(raw: Uint8Array): KeyObject {
  if (raw.length !== 32) throw new NoteError('Ed25519 public key must be 32 bytes');
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
    format: 'jwk',
  });
}

export function ed25519PrivateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new NoteError('Ed25519 seed must be 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

export function noteSigner(name: string, privateKey: KeyObject): NoteSigner {
  assertKeyName(name);
  if (privateKey.type !== 'private') throw new NoteError('a note signer needs a private key');
  const keyId = ed25519KeyId(name, rawEd25519PublicKey(privateKey));
  return {
    name,
    keyId,
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

export function noteVerifier(name: string, publicKey: KeyObject): NoteVerifier {
  assertKeyName(name);
  const keyId = ed25519KeyId(name, rawEd25519PublicKey(publicKey));
  return {
    name,
    keyId,
    verify: (message, sig) => {
      try {
        return sig.length === 64 && verify(null, message, publicKey, sig);
      } catch {
        return false;
      }
    },
  };
}

/** Verifier key text: name+hex(keyID)+base64(0x01 ‖ pub32). */
export function verifierKey(name: string, publicKey: KeyObject): string {
  assertKeyName(name);
  const pub = rawEd25519PublicKey(publicKey);
  const typed = new Uint8Array(33);
  typed[0] = ALG_ED25519;
  typed.set(pub, 1);
  return `${name}+${toHex(ed25519KeyId(name, pub))}+${toBase64(typed)}`;
}

/**
 * Splits name+id+key; base64 may itself contain '+', so only the first two separate fields. `alg`
 * is the key's type byte: 0x01 for a note signer, 0x04 for an Ed25519 cosigner (tlog-cosignature).
 */
export function splitKey(
  text: string,
  what: string,
  alg: number = ALG_ED25519,
): { name: string; id: string; key: Uint8Array } {
  const i = text.indexOf('+');
  const j = i < 0 ? -1 : text.indexOf('+', i + 1);
  if (j < 0) throw new NoteError(`malformed ${what}`);
  const name = text.slice(0, i);
  const id = text.slice(i + 1, j);
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/i.test(id)) throw new NoteError(`malformed ${what}`);
  let key: Uint8Array;
  try {
    key = fromBase64(text.slice(j + 1));
  } catch (err) {
    throw new NoteError(`malformed ${what}`, { cause: err });
  }
  if (key.length !== 33 || key[0] !== alg)
    throw new NoteError(`${what} is not an Ed25519 key of type 0x0${alg.toString(16)}`);
  return { name, id: id.toLowerCase(), key: key.subarray(1) };
}

export function parseVerifierKey(vkey: string): NoteVerifier {
  const { name, id, key } = splitKey(vkey, 'verifier key');
  if (toHex(ed25519KeyId(name, key)) !== id) throw new NoteError('verifier key ID does not match its key');
  let publicKey: KeyObject;
  try {
    publicKey = ed25519PublicKeyFromRaw(key);
  } catch (err) {
    throw new NoteError('verifier key is not a valid Ed25519 point', { cause: err });
  }
  return noteVerifier(name, publicKey);
}

/**
 * Go's signer key text, PRIVATE+KEY+name+hex(keyID)+base64(0x01 ‖ seed32). The key ID is of the
 * public key, so it is checked after deriving it from the seed.
 */
export function parseSignerKey(skey: string): NoteSigner {
  const prefix = 'PRIVATE+KEY+';
  if (!skey.startsWith(prefix)) throw new NoteError('malformed signer key');
  const { name, id, key } = splitKey(skey.slice(prefix.length), 'signer key');
  const signer = noteSigner(name, ed25519PrivateKeyFromSeed(key));
  if (toHex(signer.keyId) !== id) throw new NoteError('signer key ID does not match its key');
  return signer;
}

function assertNoteText(text: string): void {
  if (!text.endsWith('\n')) throw new NoteError('note text must end in a newline');
  if (CONTROL_EXCEPT_NEWLINE.test(text) || LONE_SURROGATE.test(text)) {
    throw new NoteError('note text must be valid UTF-8 without control characters other than newline');
  }
}

export function signNote(text: string, signers: NoteSigner[]): string {
  assertNoteText(text);
  if (signers.length === 0) throw new NoteError('a note needs at least one signature');
  const message = utf8.encode(text);
  let out = `${text}\n`;
  for (const s of signers) {
    assertKeyName(s.name);
    if (s.keyId.length !== 4) throw new NoteError('key IDs are 4 bytes');
    const sig = s.sign(message);
    const blob = new Uint8Array(4 + sig.length);
    blob.set(s.keyId, 0);
    blob.set(sig, 4);
    out += `${SIG_PREFIX}${s.name} ${toBase64(blob)}\n`;
  }
  return out;
}

export interface SignatureLine {
  name: string;
  keyId: Uint8Array;
  sig: Uint8Array;
}

function parseSignatureLine(line: string): SignatureLine {
  if (!line.startsWith(SIG_PREFIX)) throw new NoteError('malformed note: unexpected line in the signature block');
  const rest = line.slice(SIG_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space < 0) throw new NoteError('malformed note: signature line has no signature');
  const name = rest.slice(0, space);
  if (!isValidKeyName(name)) throw new NoteError('malformed note: invalid key name in a signature line');
  let blob: Uint8Array;
  try {
    blob = fromBase64(rest.slice(space + 1));
  } catch (err) {
    throw new NoteError('malformed note: signature is not base64', { cause: err });
  }
  if (blob.length < 5) throw new NoteError('malformed note: signature too short');
  return { name, keyId: blob.subarray(0, 4), sig: blob.subarray(4) };
}

/**
 * A note's text and its signature lines, parsed but not verified: for cosignatures, whose lines
 * are checked against a message other than the text alone (tlog-cosignature).
 */
export function splitNote(s: string): { text: string; signatures: SignatureLine[] } {
  if (CONTROL_EXCEPT_NEWLINE.test(s) || LONE_SURROGATE.test(s))
    throw new NoteError('malformed note: control characters or invalid UTF-8');
  // The text ends at the last blank line: the text itself may contain blank lines, signatures cannot.
  const split = s.lastIndexOf('\n\n');
  if (split < 0 || !s.endsWith('\n')) throw new NoteError('malformed note: no signature block');
  const text = s.slice(0, split + 1);
  const lines = s.slice(split + 2, -1).split('\n');
  if (lines.length === 1 && lines[0] === '') throw new NoteError('malformed note: no signatures');
  if (lines.length > MAX_SIGNATURES) throw new NoteError(`malformed note: more than ${MAX_SIGNATURES} signatures`);
  return { text, signatures: lines.map(parseSignatureLine) };
}

/** One signature line as a note carries it. */
export function signatureLine(name: string, keyId: Uint8Array, sig: Uint8Array): string {
  const blob = new Uint8Array(keyId.length + sig.length);
  blob.set(keyId, 0);
  blob.set(sig, keyId.length);
  return `${SIG_PREFIX}${name} ${toBase64(blob)}\n`;
}

/**
 * Opens a signed note against trusted verifiers and returns its text and the names of the keys
 * whose signatures verified. Accepts the note as text or as the raw bytes it travelled as (then
 * invalid UTF-8 is refused rather than papered over with U+FFFD).
 */
export function openNote(note: string | Uint8Array, verifiers: NoteVerifier[]): { text: string; verifiedBy: string[] } {
  let s: string;
  if (typeof note === 'string') {
    s = note;
  } else {
    try {
      s = utf8Strict.decode(note);
    } catch (err) {
      throw new NoteError('malformed note: not valid UTF-8', { cause: err });
    }
  }
  const { text, signatures: sigs } = splitNote(s);

  const message = utf8.encode(text);
  const verifiedBy: string[] = [];
  for (const sig of sigs) {
    const known = verifiers.filter((v) => v.name === sig.name && equalBytes(v.keyId, sig.keyId));
    if (known.length === 0) continue; // an unknown key (a witness, a rotated-in key): ignore
    const label = `${sig.name}+${toHex(sig.keyId)}`;
    if (known.length > 1) throw new NoteError(`ambiguous key ${label}`);
    if (!known[0]!.verify(message, sig.sig)) throw new NoteError(`invalid signature for key ${label}`);
    if (!verifiedBy.includes(sig.name)) verifiedBy.push(sig.name);
  }
  if (verifiedBy.length === 0) throw new NoteError('note has no verifiable signatures');
  return { text, verifiedBy };
}
