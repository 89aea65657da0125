import { isIP } from 'node:net';
import type { Context } from 'hono';
import { normaliseAddress } from '../limits/limiter.js';

/** The one client every request without a socket (app.request() in tests) is counted as. */
export const UNKNOWN_CLIENT = 'unknown';

/**
 * The client's address, for its rate-limit bucket only (never stored, logged or echoed). It is the
 * socket's peer; X-Forwarded-For is believed only when that peer is a proxy named in
 * TENDED_TRUST_PROXY, walking back from the nearest hop past every trusted proxy, so a client cannot
 * pick its own bucket by sending the header itself.
 */
export function clientAddress(c: Context, trustProxy: ReadonlySet<string>): string {
  const peer = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket
    ?.remoteAddress;
  return addressOf(peer, trustProxy, () => c.req.raw.headers.get('x-forwarded-for'));
}

/** The same rule over a socket's peer and a way to read X-Forwarded-For (the hot path has no Context). */
export function addressOf(
  peer: string | undefined,
  trustProxy: ReadonlySet<string>,
  forwardedFor: () => string | null | undefined,
): string {
  if (!peer) return UNKNOWN_CLIENT;
  let client = normaliseAddress(peer);
  if (trustProxy.size === 0 || !trustProxy.has(client)) return client;
  const forwarded = forwardedFor();
  if (!forwarded) return client;
  const hops = forwarded.split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normaliseAddress(hops[i]!);
    // A hop that is not an address was not written by a proxy we trust: stop at the one that passed it.
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!trustProxy.has(hop)) return client;
  }
  return client;
}
