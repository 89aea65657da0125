import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { RatePolicy, Take } from './bucket.js';
import type { RateLimiter } from './limiter.js';

/**
 * The client the rate limit admitted a request for: an API key's id, or the address when there is
 * no key, with the policy its token came from. A route that costs more than one request (an MCP
 * batch) or spends something else per client (discovery's daily share) spends it here, from the
 * same identity and the same store (memory, or Redis under a keyed hash). The identity stays in
 * this object, which lives as long as the request: routes and operations never see it.
 */
export class RequestClient {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly id: string,
    readonly policy: RatePolicy,
  ) {}

  /**
   * Spends `more` tokens beyond the one the request's admission spent, all or none. A refusal's
   * Retry-After is when the whole request (`more` + 1) could be afforded.
   */
  spendMore(more: number): Take | Promise<Take> {
    return this.limiter.takeAll(this.id, this.policy, more, more + 1);
  }

  /** Up to `wanted` of what is left of this client's discovery share of `day` (operations/discovery.ts). */
  takeShare(day: string, wanted: number, share: number): Promise<number> {
    return this.limiter.takeShare(this.id, day, wanted, share);
  }

  /**
   * The client as the parse pool's fair queue knows it: a hash of the identity under a salt made
   * at start and never kept, so the queue tells clients apart without holding an address or a key
   * id (never stored, never logged).
   */
  get parseKey(): string {
    return createHash('sha256').update(PARSE_KEY_SALT).update(this.id).digest('base64url').slice(0, 22);
  }

  /** The limit an API key would give, when this client has none: what a refusal may suggest. */
  get keyedLimit(): number | null {
    return this.policy === this.limiter.free ? this.limiter.keyed.limit : null;
  }
}

const PARSE_KEY_SALT = randomBytes(16);

// Keyed by the request's context: gone with it, and out of reach of anything that has no context.
const admitted = new WeakMap<Context, RequestClient>();

/** Called by the rate limit once it admitted the request. */
export function admitClient(c: Context, client: RequestClient): void {
  admitted.set(c, client);
}

/** The client the request was admitted for; undefined when no rate limit runs (tests not about limits). */
export function clientOf(c: Context): RequestClient | undefined {
  return admitted.get(c);
}
