import { describe, expect, it } from 'vitest';
import { EndpointRefusedError, refusedAddress, resolveEndpoint } from './webhook-address.js';

describe('webhook addresses (SSRF)', () => {
  it('refuses loopback, private, link-local, unique-local, multicast and unspecified addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ])
      expect(refusedAddress(a), a).not.toBeNull();
  });

  it('admits public unicast addresses', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(refusedAddress(a), a).toBeNull();
  });

  it('resolves a name and refuses it when any address is not public, unless private addresses are allowed', async () => {
    await expect(resolveEndpoint(new URL('https://localhost/hook'), false)).rejects.toThrow(EndpointRefusedError);
    await expect(resolveEndpoint(new URL('https://127.0.0.1/hook'), false)).rejects.toThrow(/loopback, private/);
    await expect(resolveEndpoint(new URL('https://[::1]/hook'), false)).rejects.toThrow(/loopback, private/);
    await expect(resolveEndpoint(new URL('https://127.0.0.1/hook'), true)).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(resolveEndpoint(new URL('https://no-such-host.invalid/hook'), false)).rejects.toThrow(
      /does not resolve/,
    );
  });
});
