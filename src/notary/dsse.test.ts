import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsedAs } from '../../test/support/json.js';
import { decodeDsseBase64, pae, signEnvelope, verifyEnvelope } from './dsse.js';

/** What the tests read of test/vectors/dsse/protocol-vector.json. */
interface DsseVector {
  serialized_body: string;
  payload_type: string;
  pae: string;
  /** P-256, each coordinate and the scalar in decimal */
  key: { x: string; y: string; d: string };
  envelope: { payload: string; payloadType: string; signatures: { sig: string }[] };
}

const vector = parsedAs<DsseVector>(
  readFileSync(new URL('../../test/vectors/dsse/protocol-vector.json', import.meta.url), 'utf8'),
);
const utf8 = new TextEncoder();
const decimalToB64url = (n: string) =>
  Buffer.from(BigInt(n).toString(16).padStart(64, '0'), 'hex').toString('base64url');

describe('DSSE PAE and envelopes', () => {
  it('reproduces the PAE of the DSSE protocol test vector byte for byte', () => {
    expect(Buffer.from(pae(vector.payload_type, utf8.encode(vector.serialized_body))).toString()).toBe(vector.pae);
  });

  it("verifies the vector's deterministic ECDSA P-256 signature over that PAE (the envelope carries what the spec says)", () => {
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: decimalToB64url(vector.key.x), y: decimalToB64url(vector.key.y) },
      format: 'jwk',
    });
    const body = decodeDsseBase64(vector.envelope.payload, 'payload');
    expect(Buffer.from(body).toString()).toBe(vector.serialized_body);
    const sig = decodeDsseBase64(vector.envelope.signatures[0]!.sig, 'sig');
    expect(verify('sha256', pae(vector.envelope.payloadType, body), { key, dsaEncoding: 'ieee-p1363' }, sig)).toBe(
      true,
    );
    // And the private scalar belongs to that public key.
    const priv = createPrivateKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: decimalToB64url(vector.key.x),
        y: decimalToB64url(vector.key.y),
        d: decimalToB64url(vector.key.d),
      },
      format: 'jwk',
    });
    expect(createPublicKey(priv).export({ format: 'jwk' }).x).toBe(decimalToB64url(vector.key.x));
  });

  it('counts bytes, not characters, for a non-ASCII payload type and body (no upstream vector covers it)', () => {
    const out = Buffer.from(pae('application/vnd.ümlaut+json', utf8.encode('é'))).toString();
    expect(out).toBe('DSSEv1 28 application/vnd.ümlaut+json 2 é'); // 27 characters, 28 bytes;
    expect(Buffer.from(pae('', new Uint8Array(0))).toString()).toBe('DSSEv1 0  0 ');
  });

  it('signs with Ed25519 and verifies; refuses a changed payload, a changed type, an unknown key and a wrong key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const other = generateKeyPairSync('ed25519').publicKey;
    const env = signEnvelope('application/vnd.in-toto+json', utf8.encode('{"a":1}'), 'k1', privateKey);
    const keyFor = (kid: string) => (kid === 'k1' ? publicKey : null);
    expect(Buffer.from(verifyEnvelope(env, 'application/vnd.in-toto+json', keyFor).body).toString()).toBe('{"a":1}');
    // URL-safe base64 is accepted too (protocol.md: verifiers MUST accept either).
    const urlSafe = {
      ...env,
      payload: Buffer.from('{"a":1}').toString('base64url'),
      signatures: [{ keyid: 'k1', sig: Buffer.from(env.signatures[0]!.sig, 'base64').toString('base64url') }],
    };
    expect(verifyEnvelope(urlSafe, 'application/vnd.in-toto+json', keyFor).keyid).toBe('k1');

    expect(() =>
      verifyEnvelope(
        { ...env, payload: Buffer.from('{"a":2}').toString('base64') },
        'application/vnd.in-toto+json',
        keyFor,
      ),
    ).toThrow(/no signature verifies/);
    expect(() =>
      verifyEnvelope({ ...env, payloadType: 'application/json' }, 'application/vnd.in-toto+json', keyFor),
    ).toThrow(/no signature verifies/);
    expect(() =>
      verifyEnvelope(
        { ...env, signatures: [{ keyid: 'k9', sig: env.signatures[0]!.sig }] },
        'application/vnd.in-toto+json',
        keyFor,
      ),
    ).toThrow(/no signature is by a key/);
    expect(() => verifyEnvelope(env, 'application/vnd.in-toto+json', () => other)).toThrow(/no signature verifies/);
    // A valid signature over another type is still refused: the type is authenticated, then checked.
    const json = signEnvelope('application/json', utf8.encode('{}'), 'k1', privateKey);
    expect(() => verifyEnvelope(json, 'application/vnd.in-toto+json', keyFor)).toThrow(/payloadType/);
    expect(() => verifyEnvelope({ payload: 'x' }, 'application/vnd.in-toto+json', keyFor)).toThrow(/payloadType/);
    expect(() => verifyEnvelope({ ...env, signatures: [] }, 'application/vnd.in-toto+json', keyFor)).toThrow(
      /no signature/,
    );
  });
});
