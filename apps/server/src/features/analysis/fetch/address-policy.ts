import { BlockList, isIP } from 'node:net';

/**
 * Which resolved addresses the page fetcher may connect to. The analysis endpoints take any address
 * from anyone, so everything that is not the public internet is refused: otherwise the server
 * becomes a proxy into its own network and its cloud's metadata service (SSRF).
 */
export type AddressClass =
  | 'metadata'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'ipv4-mapped'
  | 'reserved';

/** Cloud metadata endpoints: refused even for FETCH_ALLOW_HOSTS, since they hand out credentials. */
const METADATA = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean...
  '169.254.170.2', // AWS ECS task metadata
  '169.254.169.253', // AWS DNS resolver / Time Sync
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  '168.63.129.16', // Azure's host agent (WireServer), reachable from inside its machines only
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::253',
]);

interface FamilyLists {
  ipv4: BlockList;
  ipv6: BlockList;
}

// One list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 subnets (and
// back), so mixing families in one list would make ::ffff:0:0/96 swallow every IPv4 address.
function list(entries: Array<[string, number, 'ipv4' | 'ipv6']>): FamilyLists {
  const lists = { ipv4: new BlockList(), ipv6: new BlockList() };
  for (const [net, prefix, family] of entries) lists[family].addSubnet(net, prefix, family);
  return lists;
}

// Checked in this order; the first match names the refusal.
const RANGES: Array<[AddressClass, FamilyLists]> = [
  // Every IPv4 address in IPv6 clothing is refused outright: the v4 part could be anything, and
  // some stacks route ::ffff:127.0.0.1 to the loopback interface.
  ['ipv4-mapped', list([['::ffff:0:0', 96, 'ipv6']])],
  [
    'unspecified',
    list([
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ]),
  ],
  [
    'loopback',
    list([
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ]),
  ],
  [
    'private',
    list([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['fc00::', 7, 'ipv6'], // unique local
      ['fec0::', 10, 'ipv6'], // deprecated site-local
    ]),
  ],
  [
    'link-local',
    list([
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ]),
  ],
  ['cgnat', list([['100.64.0.0', 10, 'ipv4']])],
  [
    'multicast',
    list([
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ]),
  ],
  [
    'reserved',
    list([
      ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
      ['192.0.2.0', 24, 'ipv4'], // documentation
      ['198.18.0.0', 15, 'ipv4'], // benchmarking
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'], // future use and broadcast
      ['::', 96, 'ipv6'], // deprecated IPv4-compatible
      ['64:ff9b::', 96, 'ipv6'], // NAT64 reaches arbitrary IPv4, private included
      ['64:ff9b:1::', 48, 'ipv6'],
      ['100::', 64, 'ipv6'], // discard
      ['2001::', 32, 'ipv6'], // Teredo embeds IPv4
      ['2001:db8::', 32, 'ipv6'], // documentation
      ['2002::', 16, 'ipv6'], // 6to4 embeds IPv4
    ]),
  ],
];

/** The class of a non-public address, or null for a public one. Throws on a non-address. */
export function classifyAddress(address: string): AddressClass | null {
  const family = isIP(address);
  if (family === 0) throw new Error(`Not an IP address: ${address}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (METADATA.has(normalize(address))) return 'metadata';
  for (const [cls, lists] of RANGES) if (lists[type].check(address, type)) return cls;
  return null;
}

/** Compresses an IPv6 text form so the metadata set matches however it was written. */
function normalize(address: string): string {
  if (!address.includes(':')) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}

const DESCRIPTIONS: Record<AddressClass, string> = {
  metadata: 'a cloud metadata address',
  loopback: 'a loopback address (this server itself)',
  private: 'a private network address',
  'link-local': 'a link-local address',
  cgnat: 'a carrier-grade NAT (shared) address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  'ipv4-mapped': 'an IPv4-mapped IPv6 address',
  reserved: 'a reserved or special-purpose address',
};

/** A refusal message naming the host, the address and why, for the 400 answer. */
export function refusalMessage(host: string, address: string, cls: AddressClass): string {
  const subject = host === address ? `${address} is` : `${host} resolves to ${address}, which is`;
  return `Refused to fetch the page: ${subject} ${DESCRIPTIONS[cls]}. Only public web addresses can be analysed.`;
}
