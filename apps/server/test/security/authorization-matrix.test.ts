import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, testDialects, type TestServer } from '../test-app';

/**
 * Every API route × who is asking. The rows come from the app's own route table, so a new route
 * is checked the moment it exists: it must either be listed here as public, or authenticate.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/docs',
  'GET /api/health',
  'GET /api/ready',
  'GET /api/config',
  'GET /api/region',
  'GET /api/alerts/latest',
  'GET /api/captcha/challenge',
  'POST /api/logs',
  'POST /api/contact',
  'POST /api/register',
  'POST /api/login',
  'POST /api/token/refresh', // authenticates with the refresh token itself
  'POST /api/request_password_reset',
  'POST /api/reset_password',
  'POST /api/accessibility-analysis', // spec §6: sent without a token
  'POST /api/seo-analysis',
]);

const fill = (url: string, id: string | number) => url.replace(/:\w+/g, String(id));

describe.each(testDialects())('authorization matrix (%s)', (dialect) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let other: Awaited<ReturnType<typeof registerUser>>;
  let ownerFileId: number;
  let expiredToken: string;
  let deletedUserToken: string;
  let loggedOutToken: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    owner = await registerUser(server);
    other = await registerUser(server);

    const form = new FormData();
    form.append('file', new Blob(['hello matrix']), 'matrix.txt');
    const up = await server.request('/api/upload_file', {
      method: 'POST',
      token: owner.token,
      body: form,
    });
    ownerFileId = (await up.json()).file.id;

    const claims = JSON.parse(Buffer.from(owner.token.split('.')[1]!, 'base64url').toString());
    expiredToken = await new SignJWT({ sid: claims.sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
      .sign(new TextEncoder().encode(server.app.config.JWT_SECRET));

    const doomed = await registerUser(server);
    deletedUserToken = doomed.token;
    await server.request('/api/delete_account', { method: 'DELETE', token: doomed.token });

    const leaving = await registerUser(server);
    loggedOutToken = leaving.token;
    await server.request('/api/logout', { method: 'POST', token: leaving.token });
  });
  afterAll(() => server.close());

  const routes = () => server.app.routeTable.filter((r) => r.url.startsWith('/api/'));

  it('knows every route: each one is public by design or authenticates', () => {
    expect(routes().length).toBeGreaterThan(20);
    const unprotected = routes()
      .filter((r) => !r.authenticated)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !PUBLIC_ROUTES.has(r));
    expect(unprotected).toEqual([]);
  });

  it('answers 401 on every protected route to anonymous, malformed, expired, logged-out and deleted-user tokens', async () => {
    const cases: [string, string | undefined][] = [
      ['anonymous', undefined],
      ['malformed', 'not.a.jwt'],
      ['expired', expiredToken],
      ['logged out', loggedOutToken],
      ['deleted user', deletedUserToken],
      ['refresh token as access token', owner.refresh_token],
    ];
    for (const route of routes().filter((r) => r.authenticated)) {
      for (const [who, token] of cases) {
        const res = await server.request(fill(route.url, ownerFileId), {
          method: route.method,
          token,
        });
        expect(res.status, `${route.method} ${route.url} as ${who}`).toBe(401);
        expect(await res.json()).toHaveProperty('error');
      }
    }
  });

  it("answers 404 to another user on every route that names the owner's file, exactly as for a missing file", async () => {
    const byId = routes().filter((r) => r.authenticated && r.url.includes(':'));
    expect(byId.length).toBeGreaterThanOrEqual(4);
    for (const route of byId) {
      const init = {
        method: route.method,
        token: other.token,
        ...(route.method === 'PATCH' ? { json: { new_name: 'x' } } : {}),
      };
      const theirs = await server.request(fill(route.url, ownerFileId), init);
      const missing = await server.request(fill(route.url, 99_999_999), init);
      expect(theirs.status, `${route.method} ${route.url}`).toBe(404);
      expect(await theirs.json()).toEqual(await missing.json());
    }
    // And the owner's file is untouched by all of that.
    const list = await (await server.request('/api/my_files', { token: owner.token })).json();
    expect(list.files.map((f: { id: number; file_name: string }) => [f.id, f.file_name])).toEqual([
      [ownerFileId, 'matrix.txt'],
    ]);
  });

  it('lets the owner read every protected GET route without parameters', async () => {
    for (const route of routes().filter(
      (r) => r.authenticated && r.method === 'GET' && !r.url.includes(':'),
    )) {
      const res = await server.request(route.url, { token: owner.token });
      expect(res.status, route.url).toBe(200);
    }
  });
});
