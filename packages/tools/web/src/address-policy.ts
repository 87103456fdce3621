import type { BlockList } from 'node:net';

// node:net (with its socket machinery) is fetched on the first check rather than imported: the
// package index exports these checks, and importing the tool pack should not load networking.
const net = () => process.getBuiltinModule('node:net');

interface BlockedRange {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  label: string;
}

// Addresses a fetch must never reach on its own: this machine, the local network, cloud metadata
// (169.254.169.254), carrier NAT, multicast, and ranges that are never public.
const blockedRanges: BlockedRange[] = [
  { network: '0.0.0.0', prefix: 8, family: 'ipv4', label: 'unspecified ("this network")' },
  { network: '10.0.0.0', prefix: 8, family: 'ipv4', label: 'private' },
  { network: '100.64.0.0', prefix: 10, family: 'ipv4', label: 'carrier-grade NAT' },
  { network: '127.0.0.0', prefix: 8, family: 'ipv4', label: 'loopback' },
  { network: '169.254.0.0', prefix: 16, family: 'ipv4', label: 'link-local (cloud metadata)' },
  { network: '172.16.0.0', prefix: 12, family: 'ipv4', label: 'private' },
  { network: '192.0.0.0', prefix: 24, family: 'ipv4', label: 'IETF protocol assignment' },
  { network: '192.0.2.0', prefix: 24, family: 'ipv4', label: 'documentation' },
  { network: '192.88.99.0', prefix: 24, family: 'ipv4', label: '6to4 relay' },
  { network: '192.168.0.0', prefix: 16, family: 'ipv4', label: 'private' },
  { network: '198.18.0.0', prefix: 15, family: 'ipv4', label: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, family: 'ipv4', label: 'documentation' },
  { network: '203.0.113.0', prefix: 24, family: 'ipv4', label: 'documentation' },
  { network: '224.0.0.0', prefix: 4, family: 'ipv4', label: 'multicast' },
  { network: '240.0.0.0', prefix: 4, family: 'ipv4', label: 'reserved or broadcast' },
  { network: '::', prefix: 128, family: 'ipv6', label: 'unspecified' },
  { network: '::1', prefix: 128, family: 'ipv6', label: 'loopback' },
  { network: '::', prefix: 96, family: 'ipv6', label: 'IPv4-compatible (deprecated)' },
  { network: '64:ff9b:1::', prefix: 48, family: 'ipv6', label: 'local-use NAT64' },
  { network: '100::', prefix: 64, family: 'ipv6', label: 'discard-only' },
  { network: '2001::', prefix: 32, family: 'ipv6', label: 'Teredo tunnel' },
  { network: '2001:db8::', prefix: 32, family: 'ipv6', label: 'documentation' },
  { network: 'fc00::', prefix: 7, family: 'ipv6', label: 'unique local (private)' },
  { network: 'fe80::', prefix: 10, family: 'ipv6', label: 'link-local' },
  { network: 'fec0::', prefix: 10, family: 'ipv6', label: 'site-local (deprecated)' },
  { network: 'ff00::', prefix: 8, family: 'ipv6', label: 'multicast' },
];

type RangeList = { range: BlockedRange; list: BlockList };
let rangeLists: RangeList[] | undefined;

function blockedRangeLists(): RangeList[] {
  rangeLists ??= blockedRanges.map((range) => {
    const list = new (net().BlockList)();
    list.addSubnet(range.network, range.prefix, range.family);
    return { range, list };
  });
  return rangeLists;
}

/**
 * Why `address` (an IP literal) must not be fetched, or undefined for a public unicast address.
 * IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by the IPv4 address inside them.
 */
export function blockedAddressReason(address: string): string | undefined {
  const family = net().isIP(address);
  if (family === 0) return 'not an IP address';
  if (family === 6) {
    const embedded = embeddedIpv4(address);
    if (embedded !== undefined) {
      const inner = blockedAddressReason(embedded);
      return inner === undefined ? undefined : `${inner} (${embedded} inside an IPv6 address)`;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const { range, list } of blockedRangeLists()) {
    if (range.family === type && list.check(address, type)) return range.label;
  }
  return undefined;
}

/** The IPv4 address an IPv6 address carries in a standard embedding, if any. */
export function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const isNat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (isMapped || isNat64) return toIpv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return toIpv4(groups[1]!, groups[2]!);
  return undefined;
}

function toIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight 16-bit groups of an IPv6 literal (zone ids and a trailing dotted quad allowed). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.split('%')[0]!.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - start.length - end.length;
  const groups = [...start, ...new Array<number>(Math.max(fill, 0)).fill(0), ...end];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}
