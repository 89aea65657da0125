/**
 * The verdict key set: a JWK Set (RFC 7517 §5) of Ed25519 keys (RFC 8037 OKP) that an agent pins
 * to verify verdict envelopes offline. Research anchors-notary.md §1.6–§1.7:
 * - kid = the RFC 7638 thumbprint, so a kid names exactly one key and anyone can recompute it;
 * - lifecycle members (status, valid_from, valid_until) beside the standard ones: RFC 7517 §4 has
 *   verifiers ignore members they do not understand;
 * - every version is a superset of the one before (a published key is never removed), signed in a
 *   DSSE envelope by a key of the previous version, and its digest is logged.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { encodeLeaf } from './leaf.js';
import { rawEd25519PublicKey } from './note.js';

export const KEY_SET_PAYLOAD_TYPE = 'application/vnd.tended.keyset+json';

export type KeyStatus = 'active' | 'retired';

export interface VerdictJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'Ed25519';
  use: 'sig';
  status: KeyStatus;
  /** RFC 3339 UTC: the key signs nothing dated before this */
  valid_from: string;
  /** RFC 3339 UTC, set when the key is retired: it signs nothing dated after this */
  valid_until: string | null;
}

export interface LogKey {
  /** C2SP verifier key of the checkpoint key, name+id+base64 */
  vkey: string;
  status: KeyStatus;
  valid_from: string;
  valid_until: string | null;
}

/** One version of the key set: what is signed and whose digest is logged. */
export interface KeySetDocument {
  version: number;
  issued_at: string;
  keys: VerdictJwk[];
  log: { origin: string; vkeys: LogKey[] };
}

/** RFC 7638 thumbprint of an Ed25519 public key: base64url SHA-256 of {"crv","kty","x"} in that order. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash('sha256').update(members).digest('base64url');
}

export function publicJwkOf(key: KeyObject): { kty: 'OKP'; crv: 'Ed25519'; x: string; kid: string } {
  const x = Buffer.from(rawEd25519PublicKey(key)).toString('base64url');
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint({ crv: 'Ed25519', kty: 'OKP', x }) };
}

/** The key a JWK describes, after checking it is an Ed25519 key whose kid is its own thumbprint. */
export function keyFromJwk(jwk: unknown): KeyObject {
  const j = jwk as Partial<VerdictJwk> | null;
  if (typeof j !== 'object' || j === null || j.kty !== 'OKP' || j.crv !== 'Ed25519' || typeof j.x !== 'string') {
    throw new Error('a key in the set is not an Ed25519 OKP key');
  }
  if (j.kid !== jwkThumbprint({ crv: j.crv, kty: j.kty, x: j.x }))
    throw new Error(`key ${String(j.kid)}: its kid is not its RFC 7638 thumbprint`);
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: j.x }, format: 'jwk' });
}

/** The exact bytes a key-set version is signed and logged as (RFC 8785). */
export function keySetBytes(doc: KeySetDocument): Uint8Array {
  return encodeLeaf(doc);
}

export function keySetDigest(doc: KeySetDocument): string {
  return createHash('sha256').update(keySetBytes(doc)).digest('hex');
}

/**
 * Checks that `next` may follow `prev`: the next version number, and every key of `prev` still in
 * it with the same public key (a published key is never removed or swapped).
 */
export function assertSuccessor(prev: KeySetDocument, next: KeySetDocument): void {
  if (next.version !== prev.version + 1)
    throw new Error(`key set version ${next.version} does not follow ${prev.version}`);
  for (const key of prev.keys) {
    const kept = next.keys.find((k) => k.kid === key.kid);
    if (!kept || kept.x !== key.x)
      throw new Error(`key set version ${next.version} drops key ${key.kid}; published keys are never removed`);
  }
  for (const v of prev.log.vkeys) {
    if (!next.log.vkeys.some((k) => k.vkey === v.vkey))
      throw new Error(`key set version ${next.version} drops checkpoint key ${v.vkey}`);
  }
}

export const KEY_SET_LEAF_TYPE = 'tended/keyset/v1';

/** The leaf that logs one key-set version: its number, when it was issued, and its digest. */
export function keySetLeafRecord(
  entry: { version: number; issued_at: string; digest: string },
  loggedAt: string,
): Record<string, unknown> {
  return {
    _type: KEY_SET_LEAF_TYPE,
    version: entry.version,
    issued_at: entry.issued_at,
    sha256: entry.digest,
    logged_at: loggedAt,
  };
}

/** The inverse of keySetLeafRecord, refusing any record it would not have written. */
export function keySetFromLeafRecord(record: Record<string, unknown>): {
  version: number;
  issued_at: string;
  digest: string;
  logged_at: string;
} {
  const { version, issued_at, sha256, logged_at } = record;
  if (
    record['_type'] !== KEY_SET_LEAF_TYPE ||
    !Number.isSafeInteger(version) ||
    (version as number) < 1 ||
    typeof issued_at !== 'string' ||
    typeof sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(sha256) ||
    typeof logged_at !== 'string' ||
    Object.keys(record).length !== 5
  ) {
    throw new Error('this key-set leaf does not match the key-set record format');
  }
  return { version: version as number, issued_at, digest: sha256, logged_at };
}
