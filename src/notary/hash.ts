/**
 * RFC 6962 §2.1 / RFC 9162 §2.1.1 hashing, plus the strict encodings hashes travel in.
 *
 * Leaf and node hashes are domain-separated (0x00 / 0x01 prefixes) so an interior node can never
 * be passed off as a leaf (the second-preimage forgery generic Merkle libraries allow).
 */
import { hash as digest } from 'node:crypto';

/** A SHA-256 output: always 32 bytes where this module produces one. */
export type Hash = Uint8Array;

export const HASH_SIZE = 32;

// Hashes are handed out as plain Uint8Arrays, not Buffers: Buffer#slice returns a view, so a
// caller "copying" a Buffer hash with .slice() and then editing it would corrupt stored nodes.
function plain(b: Buffer): Hash {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function sha(data: Uint8Array): Hash {
  return plain(digest('sha256', data, 'buffer'));
}

/** MTH({}) = SHA-256 of the empty string. Shared: never mutate it; functions hand out copies. */
export const EMPTY_ROOT: Hash = sha(new Uint8Array(0));

// One scratch buffer per process for the prefix+input concatenation. Hashing is synchronous, so
// nothing else can touch it between the copy and the digest; this keeps the hot path to one
// allocation per hash (the digest itself), which is what makes a full audit close to raw SHA-256.
let leafScratch = Buffer.allocUnsafe(4096);
const nodeScratch = Buffer.allocUnsafe(1 + 2 * HASH_SIZE);
nodeScratch[0] = 0x01;

/**
 * leafHash as Node hands it back: a Buffer, not re-wrapped. Only for hot loops whose hashes never
 * leave the caller (CompactRange's right edge): Buffer#slice is a view, so never hand these out.
 */
export function leafHashBuffer(bytes: Uint8Array): Buffer {
  const n = bytes.length + 1;
  if (n > leafScratch.length) leafScratch = Buffer.allocUnsafe(Math.max(n, 2 * leafScratch.length));
  leafScratch[0] = 0x00;
  leafScratch.set(bytes, 1);
  return digest('sha256', leafScratch.subarray(0, n), 'buffer');
}

/** nodeHash as a Buffer; same caveat as leafHashBuffer. */
export function nodeHashBuffer(l: Uint8Array, r: Uint8Array): Buffer {
  if (l.length === HASH_SIZE && r.length === HASH_SIZE) {
    nodeScratch.set(l, 1);
    nodeScratch.set(r, 1 + HASH_SIZE);
    return digest('sha256', nodeScratch, 'buffer');
  }
  const buf = Buffer.allocUnsafe(1 + l.length + r.length);
  buf[0] = 0x01;
  buf.set(l, 1);
  buf.set(r, 1 + l.length);
  return digest('sha256', buf, 'buffer');
}

/** SHA-256(0x00 ‖ bytes). */
export function leafHash(bytes: Uint8Array): Hash {
  return plain(leafHashBuffer(bytes));
}

/**
 * SHA-256(0x01 ‖ l ‖ r). Callers pass 32-byte hashes; other lengths are hashed as given (the
 * upstream hasher test feeds "N123"/"N456"), so length checks belong to the verifiers.
 */
export function nodeHash(l: Hash, r: Hash): Hash {
  return plain(nodeHashBuffer(l, r));
}

/** Plain SHA-256, for key IDs and head hashes. */
export function sha256(bytes: Uint8Array): Hash {
  return sha(bytes);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function toBase64(bytes: Uint8Array): string {
  return view(bytes).toString('base64');
}

export function toHex(bytes: Uint8Array): string {
  return view(bytes).toString('hex');
}

const BASE64 = /^(?:[A-Z0-9+/]{4})*(?:[A-Z0-9+/]{2}==|[A-Z0-9+/]{3}=)?$/i;

/**
 * Strict RFC 4648 §4 base64: standard alphabet, padding required, and the unused trailing bits
 * zero. Node's own decoder silently skips junk, which would let two spellings name one hash.
 */
export function fromBase64(s: string): Uint8Array {
  if (!BASE64.test(s)) throw new TypeError('not canonical base64');
  const bytes = Buffer.from(s, 'base64');
  if (bytes.toString('base64') !== s) throw new TypeError('not canonical base64');
  return new Uint8Array(bytes); // a copy: small Buffers are views into a shared pool
}

/** fromBase64, and the result must be exactly one SHA-256 hash. */
export function hashFromBase64(s: string): Hash {
  const bytes = fromBase64(s);
  if (bytes.length !== HASH_SIZE) throw new TypeError(`expected a ${HASH_SIZE}-byte hash, got ${bytes.length} bytes`);
  return bytes;
}

/** Lower-case hex of exactly one hash (the form head hashes are stored in). */
export function hashFromHex(s: string): Hash {
  if (!/^[0-9a-f]{64}$/.test(s)) throw new TypeError('expected 64 lower-case hex digits');
  return new Uint8Array(Buffer.from(s, 'hex'));
}
