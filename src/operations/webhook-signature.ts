import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures (standardwebhooks.com, spec "Verifying webhook authenticity"):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by the secret's bytes
 * (`whsec_` + base64). Written here with node:crypto because the maintained `standardwebhooks`
 * package is not installed; the test holds it to the spec's published example.
 */

const SECRET_PREFIX = 'whsec_';

/** A new subscription's secret: 32 random bytes, in the `whsec_` form receivers' libraries read. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` value for one message. `timestamp` in whole seconds since the epoch. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * True when one of the space-separated signatures in `header` is this message's v1 signature;
 * compared in constant time. (What a receiver does; the tests use it and docs/operating.md shows it.)
 */
export function verifyWebhook(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signWebhook(secret, id, timestamp, body));
  return header
    .split(' ')
    .some((candidate) => candidate.length === expected.length && timingSafeEqual(Buffer.from(candidate), expected));
}
