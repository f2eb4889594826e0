import { BlockList, isIP } from 'node:net';

/** Loopback: the default of METRICS_ALLOW (a scraper on the same machine, or an SSH tunnel). */
export const LOOPBACK = ['127.0.0.0/8', '::1'];

/** True for an IPv4 or IPv6 address, or such an address with a /prefix (CIDR). */
export function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/**
 * A test "is this client address in the list" over addresses and CIDR ranges. An IPv4 client
 * seen on a dual-stack socket as ::ffff:a.b.c.d is matched as a.b.c.d.
 */
export function addressMatcher(entries: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (ip) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    const address = mapped ? mapped[1]! : ip;
    const family = isIP(address);
    if (!family) return false;
    return list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}
