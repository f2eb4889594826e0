import { describe, expect, it, vi } from 'vitest';
import { readConsent, writeConsent } from './consent';

describe('consent cookie', () => {
  it('writes myAppCookieConsent=true for 365 days', () => {
    const spy = vi.spyOn(document, 'cookie', 'set');
    writeConsent('true');
    const written = spy.mock.calls[0]?.[0] ?? '';
    expect(written).toMatch(/^myAppCookieConsent=true; expires=/);
    const expires = new Date(/expires=([^;]+)/.exec(written)?.[1] ?? '').getTime();
    const days = (expires - Date.now()) / 864e5;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    spy.mockRestore();
  });

  it('reads the stored decision', () => {
    expect(readConsent()).toBeUndefined();
    writeConsent('true');
    expect(readConsent()).toBe('true');
  });
});
