import type { Context } from 'hono';
import { rateLimitValue, type Take, type RatePolicy } from '../limits/bucket.js';
import { admitClient, RequestClient } from '../limits/client.js';
import type { RateLimiter } from '../limits/limiter.js';
import { apiKeyChecker, type KeyCheck } from '../operations/api-keys.js';
import type { Store } from '../storage/store.js';
import { clientAddress } from './client-address.js';
import { STORE_RETRY_AFTER_S } from '../api/health.js';
import { detailResponse } from './errors.js';

/**
 * The rate limit on every route (spec §8, DESIGN §6): a token bucket per client address, or per API
 * key when X-API-Key names a valid one. Every answer carries the IETF RateLimit-Policy and
 * RateLimit headers (draft-ietf-httpapi-ratelimit-headers); a refusal is a 429 with Retry-After.
 */
export interface RateLimitStep {
  /**
   * Spends the request's token. A refusal (429, 401, 503) is the answer to send; otherwise the spend,
   * whose headers are already set on the context for the route's answer.
   */
  admit(c: Context): Take | Response | Promise<Take | Response>;
  /** Puts the headers on an answer a route built as a bare Response (context headers did not reach it). */
  finish(headers: Headers, take: Take): void;
}

/** Where the hot path leaves the spend of a request it hands to the framework (on Node's request). */
export const SPENT = Symbol('tended.rate-limit.spent');

/** RateLimit-Policy for each policy, built once. */
export function policyHeaderOf(limiter: RateLimiter): (policy: RatePolicy) => string {
  const free = `"free";q=${limiter.free.limit};w=${limiter.free.windowMs / 1000}`;
  const key = `"key";q=${limiter.keyed.limit};w=${limiter.keyed.windowMs / 1000}`;
  return (policy) => (policy.name === 'free' ? free : key);
}

export function rateLimit(limiter: RateLimiter, store: Store): RateLimitStep {
  const checkKey = apiKeyChecker(store, limiter.keyCacheMs);
  const policyHeader = policyHeaderOf(limiter);
  const limitHeaders = (take: Take): Record<string, string> => ({
    'ratelimit-policy': policyHeader(take.policy),
    ratelimit: rateLimitValue(take),
  });

  const decide = (c: Context, take: Take, client: string): Take | Response => {
    if (!take.allowed) {
      const policy = take.policy;
      const more = policy === limiter.free ? ` An API key (X-API-Key) raises it to ${limiter.keyed.limit}.` : '';
      return detailResponse(
        c,
        429,
        `Too many requests: the limit is ${policy.limit} per ${policy.windowMs / 1000} seconds and it is spent. Try again in ${take.retryAfterSeconds} s.${more}`,
        { ...limitHeaders(take), 'Retry-After': String(take.retryAfterSeconds) },
      );
    }
    // Set before the route runs, so they ride on its answer with no second pass over the headers.
    // Lower-case names: what fetch Headers store anyway, so set() need not fold them.
    c.header('ratelimit-policy', policyHeader(take.policy));
    c.header('ratelimit', rateLimitValue(take));
    // What the route may spend beyond this token (an MCP batch, discovery's share), from the same client.
    admitClient(c, new RequestClient(limiter, client, take.policy));
    return take;
  };

  const keyed = async (c: Context, key: string): Promise<Take | Response> => {
    let check: KeyCheck;
    try {
      check = await checkKey(key);
    } catch {
      return detailResponse(
        c,
        503,
        'Tended could not check the API key just now; try again shortly, or send the request without X-API-Key (free limit).',
        { 'Retry-After': String(STORE_RETRY_AFTER_S) },
      );
    }
    if (check.status !== 'valid') {
      // Counted against the address's free budget, so bad keys cost what keyless requests cost;
      // the answer names the key problem whatever that budget says.
      const spent = await limiter.take(`ip:${clientAddress(c, limiter.trustProxy)}`, limiter.free);
      return detailResponse(c, 401, keyProblem(check), limitHeaders(spent));
    }
    const client = `key:${check.id}`;
    return decide(c, await limiter.take(client, limiter.keyed), client);
  };

  return {
    admit(c) {
      // A request the hot path spent a token for and then handed over (a cache miss, a refusal):
      // the same spend decides, so no request pays twice.
      const spent = (c.env as { incoming?: Record<symbol, Take | undefined> } | undefined)?.incoming?.[SPENT];
      // The hot path serves keyless requests only, so that token came from the address.
      if (spent !== undefined) return decide(c, spent, `ip:${clientAddress(c, limiter.trustProxy)}`);
      const key = apiKeyHeader(c);
      // An empty X-API-Key (a client configured without one) is no key: the free limit.
      if (key !== null && key !== '') return keyed(c, key);
      const client = `ip:${clientAddress(c, limiter.trustProxy)}`;
      const taken = limiter.take(client, limiter.free);
      // In-process buckets answer synchronously: no promise, no extra turn of the event loop.
      return taken instanceof Promise ? taken.then((take) => decide(c, take, client)) : decide(c, taken, client);
    },
    finish(headers, take) {
      headers.set('ratelimit-policy', policyHeader(take.policy));
      headers.set('ratelimit', rateLimitValue(take));
    },
  };
}

/**
 * X-API-Key, read from Node's raw header list when served (a few comparisons, where a fetch
 * Headers lookup costs as much as the bucket); from the request's Headers otherwise. Repeated
 * headers are joined as Headers would join them.
 */
function apiKeyHeader(c: Context): string | null {
  const raw = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.raw.headers.get('x-api-key');
  let found: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 9 && name.toLowerCase() === 'x-api-key')
      found = found === null ? raw[i + 1]! : `${found}, ${raw[i + 1]!}`;
  }
  return found;
}

function keyProblem(check: Exclude<KeyCheck, { status: 'valid' }>): string {
  switch (check.status) {
    case 'malformed':
      return 'X-API-Key is not a Tended API key (keys look like tnd_ followed by 43 characters). Send a key issued by the operator, or no X-API-Key at all for the free limit.';
    case 'unknown':
      return 'X-API-Key names no key this service issued. Check the key, or send no X-API-Key at all for the free limit.';
    case 'revoked':
      return `The API key ${check.id} was revoked on ${check.revoked_at.slice(0, 10)}. Ask the operator for a new one, or send no X-API-Key at all for the free limit.`;
  }
}
