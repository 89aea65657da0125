import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

/**
 * Where a webhook may be sent (SSRF). By default only public unicast addresses: loopback, private
 * (RFC 1918, unique-local), link-local, shared (CGNAT), multicast, unspecified, documentation and
 * benchmarking ranges are refused, so a subscription cannot make Tended POST into the network it
 * runs in. TENDED_WEBHOOK_ALLOW_PRIVATE=on lifts this (tests, deployments whose receivers are
 * internal). Checked when the subscription is made and again at each send, on the address the
 * connection then uses (webhook-send.ts pins it), so a name that later resolves elsewhere (DNS
 * rebinding) is refused at that send.
 */
const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  REFUSED.addSubnet(net, prefix, 'ipv6');

/** Null when `address` (an IP literal) may receive webhooks; otherwise why not. */
export function refusedAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
  const blocked = mapped ? REFUSED.check(mapped, 'ipv4') : REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
  return blocked
    ? `${address} is a loopback, private, link-local or otherwise non-public address; webhooks go to public addresses only`
    : null;
}

export class EndpointRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointRefusedError';
  }
}

export interface ResolvedEndpoint {
  address: string;
  family: 4 | 6;
}

/**
 * The address to connect to for `url`: its host resolved, every address checked (a name with one
 * private address among public ones is refused whole: which one a connection gets is not ours to
 * pick), the first returned. Throws EndpointRefusedError with a sentence.
 */
export async function resolveEndpoint(url: URL, allowPrivate: boolean): Promise<ResolvedEndpoint> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let found: { address: string; family: number }[];
  if (isIP(host) !== 0) found = [{ address: host, family: isIP(host) }];
  else {
    try {
      found = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new EndpointRefusedError(`the endpoint's host ${host} does not resolve`);
    }
  }
  if (found.length === 0) throw new EndpointRefusedError(`the endpoint's host ${host} does not resolve`);
  if (!allowPrivate)
    for (const { address } of found) {
      const why = refusedAddress(address);
      if (why) throw new EndpointRefusedError(`the endpoint's host ${host} resolves to ${why}`);
    }
  return { address: found[0]!.address, family: found[0]!.family === 6 ? 6 : 4 };
}
