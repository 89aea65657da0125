import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsedAs } from '../../test/support/json.js';
import { assertSuccessor, jwkThumbprint, keyFromJwk, publicJwkOf, type KeySetDocument } from './key-set.js';

/** What the tests read of test/vectors/rfc8037/appendix-a.json. */
interface Rfc8037Vectors {
  private_jwk: { kty: string; crv: string; d: string; x: string };
  public_jwk: { kty: string; crv: string; x: string };
  thumbprint: string;
  jws_signing_input: string;
  jws_signature: string;
}

const rfc8037 = parsedAs<Rfc8037Vectors>(
  readFileSync(new URL('../../test/vectors/rfc8037/appendix-a.json', import.meta.url), 'utf8'),
);

describe('RFC 8037 Appendix A vectors', () => {
  it('A.1/A.2: the public x follows from the private d', () => {
    const key = createPrivateKey({ key: rfc8037.private_jwk, format: 'jwk' });
    expect(createPublicKey(key).export({ format: 'jwk' })).toMatchObject(rfc8037.public_jwk);
    expect(publicJwkOf(key).x).toBe(rfc8037.public_jwk.x);
  });

  it('A.3: the RFC 7638 thumbprint, which is the kid', () => {
    expect(jwkThumbprint(rfc8037.public_jwk)).toBe(rfc8037.thumbprint);
    expect(publicJwkOf(createPublicKey({ key: rfc8037.public_jwk, format: 'jwk' })).kid).toBe(rfc8037.thumbprint);
  });

  it('A.4: Ed25519 signs the JWS input to the published signature, and the key from the JWK verifies it', () => {
    const key = createPrivateKey({ key: rfc8037.private_jwk, format: 'jwk' });
    expect(sign(null, Buffer.from(rfc8037.jws_signing_input), key).toString('base64url')).toBe(rfc8037.jws_signature);
    const pub = keyFromJwk({ ...rfc8037.public_jwk, kid: rfc8037.thumbprint });
    expect(pub.export({ format: 'jwk' }).x).toBe(rfc8037.public_jwk.x);
  });

  it('refuses a JWK whose kid is not its thumbprint', () => {
    expect(() => keyFromJwk({ ...rfc8037.public_jwk, kid: 'made-up' })).toThrow(/thumbprint/);
    expect(() => keyFromJwk({ kty: 'EC', crv: 'P-256', x: 'a', kid: 'a' })).toThrow(/Ed25519/);
  });
});

describe('key-set succession', () => {
  const key = (kid: string, x: string) =>
    ({
      kty: 'OKP',
      crv: 'Ed25519',
      x,
      kid,
      alg: 'Ed25519',
      use: 'sig',
      status: 'active',
      valid_from: '2026-01-01T00:00:00Z',
      valid_until: null,
    }) as const;
  const doc = (version: number, keys: ReturnType<typeof key>[]): KeySetDocument => ({
    version,
    issued_at: '2026-01-01T00:00:00Z',
    keys: [...keys],
    log: { origin: 'o', vkeys: [] },
  });

  it('accepts a superset with the next version; refuses a dropped key, a swapped key or a skipped version', () => {
    expect(() => assertSuccessor(doc(1, [key('a', 'x1')]), doc(2, [key('a', 'x1'), key('b', 'x2')]))).not.toThrow();
    expect(() => assertSuccessor(doc(1, [key('a', 'x1')]), doc(2, [key('b', 'x2')]))).toThrow(/never removed/);
    expect(() => assertSuccessor(doc(1, [key('a', 'x1')]), doc(2, [key('a', 'x9')]))).toThrow(/never removed/);
    expect(() => assertSuccessor(doc(1, [key('a', 'x1')]), doc(3, [key('a', 'x1')]))).toThrow(/does not follow/);
  });
});
