import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../test/test-app';

/** API answers hold user data, tokens and exports: no cache may keep any of them. */
describe('Cache-Control: no-store on the API', () => {
  let server: TestServer;
  let ai: OpenAITestServer;
  beforeAll(async () => {
    ai = await startOpenAITestServer();
    server = await startTestServer({
      env: { BASE_PATH: '/assistant/', AI_BASE_URL: ai.url, AI_MODEL: 'test-model' },
    });
  });
  afterAll(async () => {
    await server.close();
    await ai.close();
  });

  it('is on answers with tokens, profiles, exports and public data, and on errors', async () => {
    const registered = await server.request('/api/register', {
      method: 'POST',
      json: { email: 'cache@example.com', password: 'long enough pw' },
    });
    const user = await registerUser(server);
    const answers: [string, Response][] = [
      ['register', registered],
      ['profile', await server.request('/api/user', { token: user.token })],
      [
        'profile under the base path',
        await server.request('/assistant/api/user', { token: user.token }),
      ],
      ['export', await server.request('/api/data-portability', { token: user.token })],
      [
        'refresh',
        await server.request('/api/token/refresh', { method: 'POST', token: user.refresh_token }),
      ],
      ['alert', await server.request('/api/alerts/latest')],
      ['401', await server.request('/api/user')],
      ['400', await server.request('/api/login', { method: 'POST', json: {} })],
      ['404', await server.request('/api/nope')],
    ];
    for (const [what, res] of answers) {
      expect(res.status, what).toBeLessThan(500);
      expect(res.headers.get('cache-control'), what).toBe('no-store');
    }
  });

  it('keeps what a route adds after no-store, and leaves non-API answers alone', async () => {
    const user = await registerUser(server);
    const stream = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      headers: { accept: 'text/event-stream' },
      json: { text: 'hi' },
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform');
    await stream.text();
    const metrics = await server.request('/metrics');
    expect(metrics.headers.get('cache-control')).toBeNull();
  });
});
