import { describe, expect, it } from 'vitest';
import { classifyAddress, refusalMessage } from './address-policy';

// Pure classification: nothing here opens a socket.
describe('classifyAddress', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['2002:7f00:1::', 'reserved'],
    ['::7f00:1', 'reserved'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  it('rejects non-addresses', () => {
    expect(() => classifyAddress('example.com')).toThrow();
  });

  it('names the host, the address and the reason', () => {
    expect(refusalMessage('intranet.example', '10.1.2.3', 'private')).toBe(
      'Refused to fetch the page: intranet.example resolves to 10.1.2.3, which is a private network address. Only public web addresses can be analysed.',
    );
    expect(refusalMessage('127.0.0.2', '127.0.0.2', 'loopback')).toMatch(
      /127\.0\.0\.2 is a loopback address/,
    );
  });
});
