import { describe, expect, it } from 'vitest';
import { blockedAddressReason, embeddedIpv4 } from './address-policy.js';

describe('blockedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved or broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique local (private)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (127.0.0.1 inside an IPv6 address)'],
    ['::ffff:7f00:1', 'loopback (127.0.0.1 inside an IPv6 address)'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata) (169.254.169.254 inside an IPv6 address)'],
    ['64:ff9b::a00:1', 'private (10.0.0.1 inside an IPv6 address)'],
    ['2002:c0a8:101::1', 'private (192.168.1.1 inside an IPv6 address)'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows public %s', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });

  it('extracts embedded IPv4 only from the standard embeddings', () => {
    expect(embeddedIpv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIpv4('2606:4700::1111')).toBeUndefined();
    expect(blockedAddressReason('example.com')).toBe('not an IP address');
  });
});
