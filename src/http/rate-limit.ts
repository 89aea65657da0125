import type { Context, Next } from 'hono';
import type { Take, RatePolicy } from '../limits/bucket.js';
import type { RateLimiter } from '../limits/limiter.js';
import { apiKeyChecker, type KeyCheck } from '../operations/api-keys.js';
import type { Store } from '../storage/store.js';
import { clientAddress } from './client-address.js';
import { detailResponse } from './errors.js';

/**
 * The rate limit on every route (spec §8, DESIGN §6): a token bucket per client address, or per API
 * key when X-API-Key names a valid one. Every answer carries the IETF RateLimit-Policy and
 * RateLimit headers (draft-ietf-httpapi-ratelimit-headers); a refusal is a 429 with Retry-After.
 * Called by the edge middleware in place of next(): it answers the refusal itself, or calls next.
 */
export function rateLimit(limiter: RateLimiter, store: Store): (c: Context, next: Next) => Promise<Response | undefined> {
  const checkKey = apiKeyChecker(store, limiter.keyCacheMs);
  const policies = {
    free: `"free";q=${limiter.free.limit};w=${limiter.free.windowMs / 1000}`,
    key: `"key";q=${limiter.keyed.limit};w=${limiter.keyed.windowMs / 1000}`,
  };
  const policyHeader = (policy: RatePolicy) => (policy.name === 'free' ? policies.free : policies.key);
  const limitHeaders = (take: Take, policy: RatePolicy): Record<string, string> => ({
    'ratelimit-policy': policyHeader(policy),
    ratelimit: rateLimitValue(take, policy),
  });
  return async (c, next) => {
    const key = apiKeyHeader(c);
    let policy = limiter.free;
    let client: string;
    // An empty X-API-Key (a client configured without one) is no key: the free limit.
    if (key !== null && key !== '') {
      let check: KeyCheck;
      try {
        check = await checkKey(key);
      } catch {
        return detailResponse(c, 503, 'Tended could not check the API key just now; try again shortly, or send the request without X-API-Key (free limit).');
      }
      if (check.status !== 'valid') {
        // Counted against the address's free budget, so bad keys cost what keyless requests cost;
        // the answer names the key problem whatever that budget says.
        const spent = await limiter.take(`ip:${clientAddress(c, limiter.trustProxy)}`, limiter.free);
        return detailResponse(c, 401, keyProblem(check), limitHeaders(spent, limiter.free));
      }
      policy = limiter.keyed;
      client = `key:${check.id}`;
    } else {
      client = `ip:${clientAddress(c, limiter.trustProxy)}`;
    }
    const taken = limiter.take(client, policy);
    // In-process buckets answer synchronously: no await, no extra turn of the event loop.
    const take = taken instanceof Promise ? await taken : taken;
    if (!take.allowed) {
      const more = policy === limiter.free ? ` An API key (X-API-Key) raises it to ${limiter.keyed.limit}.` : '';
      return detailResponse(
        c,
        429,
        `Too many requests: the limit is ${policy.limit} per ${policy.windowMs / 1000} seconds and it is spent. Try again in ${take.retryAfterSeconds} s.${more}`,
        { ...limitHeaders(take, policy), 'Retry-After': String(take.retryAfterSeconds) },
      );
    }
    await next();
    // Set on the finished answer: one place for every route, those that build their own Response too.
    const headers = c.res.headers;
    // Lower-case names: what fetch Headers store anyway, so set() need not fold them.
    headers.set('ratelimit-policy', policyHeader(policy));
    headers.set('ratelimit', rateLimitValue(take, policy));
    return undefined;
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
    if (name.length === 9 && name.toLowerCase() === 'x-api-key') found = found === null ? raw[i + 1]! : `${found}, ${raw[i + 1]!}`;
  }
  return found;
}

function rateLimitValue(take: Take, policy: RatePolicy): string {
  return `"${policy.name}";r=${take.remaining};t=${take.resetSeconds}`;
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
