import { describe, expect, it } from 'vitest';
import { addressMatcher, isAddressOrCidr, LOOPBACK } from './address-list';

describe('address lists (METRICS_ALLOW)', () => {
  it('matches loopback by default, IPv4 seen through IPv6 too, and nothing else', () => {
    const loopback = addressMatcher(LOOPBACK);
    for (const ip of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      expect(loopback(ip), ip).toBe(true);
    }
    for (const ip of ['10.0.0.1', '203.0.113.5', '::ffff:203.0.113.5', '::2', 'not-an-ip', '']) {
      expect(loopback(ip), ip).toBe(false);
    }
  });

  it('matches single addresses and ranges of both families', () => {
    const allowed = addressMatcher(['10.1.0.0/16', '192.0.2.7', 'fd00::/8']);
    expect(allowed('10.1.200.3')).toBe(true);
    expect(allowed('10.2.0.1')).toBe(false);
    expect(allowed('192.0.2.7')).toBe(true);
    expect(allowed('192.0.2.8')).toBe(false);
    expect(allowed('fd12::1')).toBe(true);
    expect(allowed('fe80::1')).toBe(false);
  });

  it('accepts only addresses and well-formed CIDRs as entries', () => {
    for (const ok of ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '0.0.0.0/0']) {
      expect(isAddressOrCidr(ok), ok).toBe(true);
    }
    for (const bad of ['localhost', '10.0.0.0/33', '::/129', '10.0.0.0/', '1.2.3.4/8/9', '1.2.3']) {
      expect(isAddressOrCidr(bad), bad).toBe(false);
    }
  });
});
