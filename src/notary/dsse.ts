/**
 * DSSE v1 (https://github.com/secure-systems-lab/dsse, protocol.md and envelope.md), Ed25519 only.
 *
 * The signature covers PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, with
 * byte lengths, so the payload is signed as opaque bytes: no canonicalisation, and the payload type
 * is authenticated. The keyid is a hint only (protocol.md: it MUST NOT be used for security
 * decisions): verification looks the key up by it, then checks the signature with that key.
 */
import { sign, verify, type KeyObject } from 'node:crypto';

export interface DsseSignature {
  keyid: string;
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** base64 of the serialised body */
  payload: string;
  signatures: DsseSignature[];
}

export class DsseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DsseError';
  }
}

const utf8 = new TextEncoder();

/** Pre-Authentication Encoding of DSSE v1. */
export function pae(payloadType: string, body: Uint8Array): Uint8Array {
  const type = utf8.encode(payloadType);
  const head = utf8.encode(`DSSEv1 ${type.length} `);
  const middle = utf8.encode(` ${body.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + body.length);
  out.set(head, 0);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(body, head.length + type.length + middle.length);
  return out;
}

export function signEnvelope(
  payloadType: string,
  body: Uint8Array,
  keyid: string,
  privateKey: KeyObject,
): DsseEnvelope {
  const sig = sign(null, pae(payloadType, body), privateKey);
  return {
    payloadType,
    payload: Buffer.from(body).toString('base64'),
    signatures: [{ keyid, sig: sig.toString('base64') }],
  };
}

/** DSSE allows standard and URL-safe base64; both are accepted, anything else is refused. */
export function decodeDsseBase64(text: unknown, what: string): Uint8Array {
  if (typeof text !== 'string' || !/^[\w+/-]*={0,2}$/.test(text)) throw new DsseError(`${what} is not base64`);
  return new Uint8Array(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

/** The envelope's shape, checked before anything in it is trusted. */
export function parseEnvelope(value: unknown): DsseEnvelope {
  const e = value as Partial<DsseEnvelope> | null;
  if (typeof e !== 'object' || e === null) throw new DsseError('the envelope is not a JSON object');
  if (typeof e.payloadType !== 'string') throw new DsseError('the envelope has no payloadType');
  if (typeof e.payload !== 'string') throw new DsseError('the envelope has no payload');
  if (!Array.isArray(e.signatures) || e.signatures.length === 0)
    throw new DsseError('the envelope carries no signature');
  for (const s of e.signatures) {
    if (typeof s !== 'object' || s === null || typeof s.sig !== 'string')
      throw new DsseError('a signature entry has no sig');
    if (s.keyid !== undefined && typeof s.keyid !== 'string') throw new DsseError('a signature keyid is not a string');
  }
  return e as DsseEnvelope;
}

/**
 * Verifies the envelope: at least one signature must verify under a key `keyFor` returns for its
 * keyid (keys it does not know are skipped), and the payload type must be the expected one.
 * Returns the payload bytes and the keyid whose key verified.
 */
export function verifyEnvelope(
  value: unknown,
  expectedType: string,
  keyFor: (keyid: string) => KeyObject | null,
): { body: Uint8Array; keyid: string } {
  const envelope = parseEnvelope(value);
  const body = decodeDsseBase64(envelope.payload, 'the payload');
  const message = pae(envelope.payloadType, body);
  let known = 0;
  for (const s of envelope.signatures) {
    const key = keyFor(s.keyid ?? '');
    if (!key) continue;
    known++;
    const sig = decodeDsseBase64(s.sig, 'a signature');
    let ok: boolean;
    try {
      ok = sig.length === 64 && verify(null, message, key, sig);
    } catch {
      ok = false;
    }
    if (ok) {
      // Checked after the signature, as protocol.md orders it: a forged type never reaches a parser.
      if (envelope.payloadType !== expectedType) {
        throw new DsseError(`the payloadType is ${JSON.stringify(envelope.payloadType)}, not ${expectedType}`);
      }
      return { body, keyid: s.keyid };
    }
  }
  throw new DsseError(
    known === 0
      ? `no signature is by a key in the key set (keyids: ${envelope.signatures.map((s) => s.keyid).join(', ')})`
      : 'no signature verifies: the payload or its type was changed after signing, or the signature is not by that key',
  );
}
