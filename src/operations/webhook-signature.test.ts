import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, verifyWebhook } from './webhook-signature.js';

describe('Standard Webhooks signatures', () => {
  // The example the Standard Webhooks libraries test against (standard-webhooks/standard-webhooks).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('signs the published example as the spec does', () => {
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies its own signatures among several, and refuses a changed body, id or time', () => {
    const s = newWebhookSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sig = signWebhook(s, id, timestamp, body);
    // Independently: HMAC-SHA256 keyed by the secret's base64-decoded bytes.
    const mac = createHmac('sha256', Buffer.from(s.slice(6), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64');
    expect(sig).toBe(`v1,${mac}`);
    expect(verifyWebhook(s, id, timestamp, body, `v1,bogus ${sig}`)).toBe(true);
    expect(verifyWebhook(s, id, timestamp, `${body} `, sig)).toBe(false);
    expect(verifyWebhook(s, `${id}x`, timestamp, body, sig)).toBe(false);
    expect(verifyWebhook(s, id, timestamp + 1, body, sig)).toBe(false);
  });
});
