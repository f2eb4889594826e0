import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/test-app';

/** Which client address the server sees, told by the per-address limit on sign-in attempts. */
describe('TRUST_PROXY as a hop count', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', AUTH_RATE_LIMIT: '2' } });
  });
  afterAll(() => server.close());

  const login = (forwardedFor: string) =>
    server.request('/api/login', {
      method: 'POST',
      headers: { 'x-forwarded-for': forwardedFor },
      json: { email: 'nobody@example.com', password: 'wrong password' },
    });

  it('takes the address the one proxy saw, not what the client wrote before it', async () => {
    expect((await login('198.51.100.1')).status).toBe(401);
    expect((await login('198.51.100.1')).status).toBe(401);
    expect((await login('198.51.100.1')).status).toBe(429);
    // A forged entry in front of the proxy's own changes nothing.
    expect((await login('203.0.113.7, 198.51.100.1')).status).toBe(429);
    // Another address the proxy saw is another client.
    expect((await login('198.51.100.2')).status).toBe(401);
  });
});
