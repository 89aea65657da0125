/**
 * C2SP tlog-cosignature v1, Ed25519 (https://c2sp.org/tlog-cosignature): a witness's statement
 * that, at a time it signs, the largest consistent tree it saw of a log has this root.
 *
 * - A cosigner key is a vkey of type 0x04: name+hex(keyID)+base64(0x04 ‖ pub32), with
 *   keyID = SHA-256(name ‖ "\n" ‖ 0x04 ‖ pub32)[:4].
 * - The signature blob after the key ID is u64 big-endian timestamp ‖ Ed25519 signature (64).
 * - The signed message is "cosignature/v1\ntime <timestamp>\n" then the checkpoint text.
 *
 * And a witness policy: k of n named cosigner keys, counting unique witnesses, never lines
 * (dsse#51: a threshold counts keys).
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import { equalBytes, sha256, toBase64, toHex } from './hash.js';
import {
  ed25519PrivateKeyFromSeed,
  ed25519PublicKeyFromRaw,
  NoteError,
  rawEd25519PublicKey,
  signatureLine,
  splitKey,
  splitNote,
} from './note.js';

export const ALG_COSIGNATURE_V1 = 0x04;
const utf8 = new TextEncoder();

export interface Cosigner {
  name: string;
  keyId: Uint8Array;
  publicKey: KeyObject;
  /** The vkey text, as configured and as policies name it. */
  vkey: string;
}

export function cosignerKeyId(name: string, publicKey32: Uint8Array): Uint8Array {
  const name8 = utf8.encode(name);
  const input = new Uint8Array(name8.length + 2 + 32);
  input.set(name8, 0);
  input[name8.length] = 0x0a;
  input[name8.length + 1] = ALG_COSIGNATURE_V1;
  input.set(publicKey32, name8.length + 2);
  return new Uint8Array(sha256(input).subarray(0, 4));
}

export function cosignerVkey(name: string, publicKey: KeyObject): string {
  const pub = rawEd25519PublicKey(publicKey);
  const typed = new Uint8Array(33);
  typed[0] = ALG_COSIGNATURE_V1;
  typed.set(pub, 1);
  return `${name}+${toHex(cosignerKeyId(name, pub))}+${toBase64(typed)}`;
}

/** A witness's cosigner vkey (type 0x04); a log's note vkey (0x01) is refused by name. */
export function parseCosignerKey(vkey: string): Cosigner {
  const { name, id, key } = splitKey(vkey, 'witness key', ALG_COSIGNATURE_V1);
  const keyId = cosignerKeyId(name, key);
  if (toHex(keyId) !== id) throw new NoteError('witness key ID does not match its key');
  let publicKey: KeyObject;
  try {
    publicKey = ed25519PublicKeyFromRaw(key);
  } catch (err) {
    throw new NoteError('witness key is not a valid Ed25519 point', { cause: err });
  }
  return { name, keyId, publicKey, vkey };
}

export function cosignedMessage(checkpointText: string, timestamp: number): Uint8Array {
  return utf8.encode(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/** A cosignature line over the checkpoint text (for tests and for a witness written in this codebase). */
export function cosign(checkpointText: string, name: string, privateKey: KeyObject, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError('timestamp must be a whole number');
  const pub = rawEd25519PublicKey(privateKey);
  const sig = sign(null, cosignedMessage(checkpointText, timestamp), privateKey);
  const blob = new Uint8Array(8 + 64);
  new DataView(blob.buffer).setBigUint64(0, BigInt(timestamp));
  blob.set(sig, 8);
  return signatureLine(name, cosignerKeyId(name, pub), blob);
}

export interface VerifiedCosignature {
  witness: string;
  /** POSIX seconds the witness signed at. */
  timestamp: number;
  /** The signature line as received. */
  line: string;
}

/**
 * The cosignatures in `note` (a checkpoint with any number of signature lines) by `cosigners`
 * that verify over its text. Lines from other keys are ignored (a witness may add lines of keys
 * nobody configured: tessera#500); a line from a configured key that fails is an error, as a
 * failing known-key signature is in a signed note (C2SP#241).
 */
export function verifyCosignatures(note: string, cosigners: Cosigner[]): VerifiedCosignature[] {
  const { text, signatures } = splitNote(note);
  const found: VerifiedCosignature[] = [];
  for (const s of signatures) {
    const cosigner = cosigners.find((c) => c.name === s.name && equalBytes(c.keyId, s.keyId));
    if (!cosigner) continue;
    if (s.sig.length !== 72) throw new NoteError(`cosignature by ${s.name} is not timestamp ‖ Ed25519 (72 bytes)`);
    const ts = new DataView(s.sig.buffer, s.sig.byteOffset, 8).getBigUint64(0);
    if (ts > BigInt(Number.MAX_SAFE_INTEGER)) throw new NoteError(`cosignature by ${s.name} has an impossible time`);
    const timestamp = Number(ts);
    let ok: boolean;
    try {
      ok = verify(null, cosignedMessage(text, timestamp), cosigner.publicKey, s.sig.subarray(8));
    } catch {
      ok = false;
    }
    if (!ok) throw new NoteError(`invalid cosignature by ${s.name}`);
    if (!found.some((f) => f.witness === s.name))
      found.push({ witness: s.name, timestamp, line: signatureLine(s.name, s.keyId, s.sig) });
  }
  return found;
}

export interface WitnessPolicy {
  witnesses: Cosigner[];
  threshold: number;
}

export function witnessPolicy(vkeys: string[], threshold: number | undefined): WitnessPolicy {
  const witnesses = vkeys.map(parseCosignerKey);
  const names = new Set(witnesses.map((w) => w.name));
  if (names.size !== witnesses.length) throw new NoteError('each witness in a policy must have its own name');
  const k = threshold ?? witnesses.length;
  if (!Number.isSafeInteger(k) || k < 1 || k > witnesses.length)
    throw new NoteError(`the witness threshold must be between 1 and the ${witnesses.length} witnesses named`);
  return { witnesses, threshold: k };
}

/** An Ed25519 key pair from a 32-byte seed, for configuration and tests. */
export function cosignerFromSeed(name: string, seed: Uint8Array): { privateKey: KeyObject; vkey: string } {
  const privateKey = ed25519PrivateKeyFromSeed(seed);
  return { privateKey, vkey: cosignerVkey(name, privateKey) };
}

/** A policy's threshold as a person writes it (a flag, a query): a whole number of witnesses, 1–9999, or null. */
export function witnessCount(text: string): number | null {
  return /^[1-9]\d{0,3}$/.test(text) ? Number(text) : null;
}
