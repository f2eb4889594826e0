import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-app';

const directives = (res: Response) =>
  (res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());

/**
 * Over plain HTTP (any host name: the default HOST answers them all) the policy must not send the
 * browser to https for the bundle; over https (PUBLIC_URL, or a trusted proxy's
 * X-Forwarded-Proto) it upgrades and HSTS is on.
 */
describe('security headers follow the scheme the product is served over', () => {
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer({ env });
    servers.push(server);
    return server;
  };
  let plain: TestServer;
  let https: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    plain = await start({ PUBLIC_URL: 'http://inkwell.lan:8080' });
    https = await start({ PUBLIC_URL: 'https://inkwell.example.com' });
    proxied = await start({ TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('over plain HTTP: no upgrade-insecure-requests and no HSTS, the rest of the policy kept', async () => {
    const res = await plain.request('/api/health', { headers: { host: 'inkwell.lan:8080' } });
    expect(directives(res)).toContain("script-src 'self'");
    expect(directives(res)).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('with an https PUBLIC_URL: upgrade-insecure-requests and HSTS', async () => {
    const res = await https.request('/api/health');
    expect(directives(res)).toContain('upgrade-insecure-requests');
    expect(directives(res)).toContain("script-src 'self'");
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('behind a trusted proxy: only when it says the visitor came over https', async () => {
    const viaHttps = await proxied.request('/api/health', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(directives(viaHttps)).toContain('upgrade-insecure-requests');
    expect(viaHttps.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const viaHttp = await proxied.request('/api/health', {
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(directives(viaHttp)).not.toContain('upgrade-insecure-requests');
    expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
  });

  it('ignores X-Forwarded-Proto from a proxy it does not trust', async () => {
    const res = await plain.request('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(directives(res)).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});
