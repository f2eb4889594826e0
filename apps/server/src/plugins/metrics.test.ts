import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-app';

/**
 * /metrics names routes, latencies and error counts: only METRICS_ALLOW addresses (default
 * loopback) or a bearer METRICS_TOKEN may read it. Behind a trusted proxy the client address is
 * the forwarded one (the test's X-Forwarded-For is only a header; all traffic stays on loopback).
 */
describe('who may read /metrics', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const scrape = (headers: Record<string, string> = {}) => server!.request('/metrics', { headers });
  const visitor = { 'x-forwarded-for': '203.0.113.9' };
  const refusal = {
    error: 'Metrics are served only to METRICS_ALLOW addresses or with METRICS_TOKEN',
  };

  it('serves loopback by default and refuses a visitor behind the proxy with 403', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    const local = await scrape();
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('inkwell_http_request_duration_seconds');
    const remote = await scrape(visitor);
    expect(remote.status).toBe(403);
    expect(await remote.json()).toEqual(refusal);
  });

  it('asks for the token from loopback once an untrusted proxy was seen forwarding', async () => {
    const token = 'scrape-token-0123456789abcdef';
    server = await startTestServer({ env: { METRICS_TOKEN: token } });
    expect((await scrape()).status).toBe(200);
    // A proxy on this machine forwards a visitor, and TRUST_PROXY names no proxy: from now on
    // loopback may be anyone.
    const proxied = await scrape(visitor);
    expect(proxied.status).toBe(403);
    expect(await proxied.json()).toEqual(refusal);
    expect((await scrape()).status).toBe(403);
    expect((await scrape({ authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it('keeps serving loopback when the proxy is trusted', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    expect((await scrape()).status).toBe(200);
  });

  it('serves anyone with the METRICS_TOKEN, and no one with a wrong one', async () => {
    const token = 'scrape-token-0123456789abcdef';
    server = await startTestServer({ env: { TRUST_PROXY: 'true', METRICS_TOKEN: token } });
    expect((await scrape({ ...visitor, authorization: `Bearer ${token}` })).status).toBe(200);
    for (const wrong of [`Bearer ${token}x`, 'Bearer short', `Basic ${token}`, token]) {
      const res = await scrape({ ...visitor, authorization: wrong });
      expect(res.status, wrong).toBe(403);
    }
  });

  it('METRICS_ALLOW replaces loopback with the listed addresses and ranges', async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'true', METRICS_ALLOW: '198.51.100.0/24, 2001:db8::7' },
    });
    expect((await scrape({ 'x-forwarded-for': '198.51.100.20' })).status).toBe(200);
    expect((await scrape({ 'x-forwarded-for': '2001:db8::7' })).status).toBe(200);
    expect((await scrape({ 'x-forwarded-for': '198.51.101.20' })).status).toBe(403);
    expect((await scrape()).status).toBe(403);
  });

  it('refuses a wrong METRICS_ALLOW at start-up, naming it', async () => {
    await expect(
      startTestServer({ env: { METRICS_ALLOW: '10.0.0.0/99' } }).then((s) => (server = s)),
    ).rejects.toThrow(/METRICS_ALLOW: must be a comma list of addresses or CIDRs/);
  });
});
