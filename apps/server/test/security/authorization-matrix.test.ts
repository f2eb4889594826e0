import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, testDialects, type TestServer } from '../test-app';

/**
 * Every API route × who is asking: anonymous, bad or dead tokens, the owner of a file, another
 * user, and an operator. The rows come from the app's own route table, so a new route is checked
 * the moment it exists: it must either be listed here as public, or authenticate; and every
 * /api/admin route must be for operators only.
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
  // A job by its random id: a user's job needs that user's token (404 otherwise), an anonymous
  // page analysis's job is reached with its id alone (features/jobs/jobs.test.ts).
  'GET /api/jobs/:id',
  'GET /api/jobs/:id/events',
  'DELETE /api/jobs/:id',
]);

const fill = (url: string, id: string | number) => url.replace(/:\w+/g, String(id));

const OPERATOR_EMAIL = 'operator@example.com';

describe.each(testDialects())('authorization matrix (%s)', (dialect) => {
  let server: TestServer;
  let owner: Awaited<ReturnType<typeof registerUser>>;
  let other: Awaited<ReturnType<typeof registerUser>>;
  let operator: Awaited<ReturnType<typeof registerUser>>;
  let ownerFileId: number;
  let ownerUserId: number;
  let expiredToken: string;
  let deletedUserToken: string;
  let loggedOutToken: string;
  let disabledUserToken: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ADMIN_EMAILS: OPERATOR_EMAIL } });
    owner = await registerUser(server);
    other = await registerUser(server);
    operator = await registerUser(server, { email: OPERATOR_EMAIL });

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
    await server.request('/api/delete_account', {
      method: 'DELETE',
      token: doomed.token,
      json: { current_password: doomed.password },
    });

    const leaving = await registerUser(server);
    loggedOutToken = leaving.token;
    await server.request('/api/logout', { method: 'POST', token: leaving.token });

    const stopped = await registerUser(server);
    disabledUserToken = stopped.token;
    const listed = await server.request('/api/admin/users', { token: operator.token });
    const users = (await listed.json()).users as { id: number; email: string }[];
    ownerUserId = users.find((u) => u.email === owner.email)!.id;
    const stoppedId = users.find((u) => u.email === stopped.email)!.id;
    const res = await server.request(`/api/admin/users/${stoppedId}/disable`, {
      method: 'POST',
      token: operator.token,
    });
    expect(await res.json()).toMatchObject({ email: stopped.email, disabled: true });
  });
  afterAll(() => server.close());

  const routes = () => server.app.routeTable.filter((r) => r.url.startsWith('/api/'));
  const operatorRoutes = () => routes().filter((r) => r.operator);
  const userRoutes = () => routes().filter((r) => r.authenticated && !r.operator);

  it('knows every route: each one is public by design or authenticates', () => {
    expect(routes().length).toBeGreaterThan(20);
    const unprotected = routes()
      .filter((r) => !r.authenticated)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !PUBLIC_ROUTES.has(r));
    expect(unprotected).toEqual([]);
  });

  it('knows the operator routes: every /api/admin route, and only those, is for operators', () => {
    const admin = routes().filter((r) => r.url.startsWith('/api/admin/'));
    expect(admin.length).toBeGreaterThanOrEqual(8);
    expect(admin.filter((r) => !r.operator || !r.authenticated)).toEqual([]);
    expect(operatorRoutes().filter((r) => !r.url.startsWith('/api/admin/'))).toEqual([]);
  });

  it('answers 401 on every protected route to anonymous, malformed, expired, logged-out, deleted and disabled users', async () => {
    const cases: [string, string | undefined][] = [
      ['anonymous', undefined],
      ['malformed', 'not.a.jwt'],
      ['expired', expiredToken],
      ['logged out', loggedOutToken],
      ['deleted user', deletedUserToken],
      ['disabled user', disabledUserToken],
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

  it("answers 404 to another user, operators included, on every route that names the owner's file, exactly as for a missing file", async () => {
    const byId = userRoutes().filter((r) => r.url.includes(':'));
    expect(byId.length).toBeGreaterThanOrEqual(4);
    // An operator runs the service; the users' documents stay theirs alone.
    for (const stranger of [other, operator]) {
      for (const route of byId) {
        const init = {
          method: route.method,
          token: stranger.token,
          ...(route.method === 'PATCH' ? { json: { new_name: 'x' } } : {}),
        };
        const theirs = await server.request(fill(route.url, ownerFileId), init);
        const missing = await server.request(fill(route.url, 99_999_999), init);
        expect(theirs.status, `${route.method} ${route.url}`).toBe(404);
        expect(await theirs.json()).toEqual(await missing.json());
      }
    }
    // And the owner's file is untouched by all of that.
    const list = await (await server.request('/api/my_files', { token: owner.token })).json();
    expect(list.files.map((f: { id: number; file_name: string }) => [f.id, f.file_name])).toEqual([
      [ownerFileId, 'matrix.txt'],
    ]);
  });

  it('answers every operator route to a signed-in non-operator exactly as an address that does not exist, changing nothing', async () => {
    const alertBefore = await (await server.request('/api/alerts/latest')).json();
    for (const user of [owner, other]) {
      for (const route of operatorRoutes()) {
        const path = fill(route.url, ownerUserId);
        const res = await server.request(path, {
          method: route.method,
          token: user.token,
          // A body the route would accept from an operator: only who is asking is wrong.
          ...(route.method === 'GET' || route.method === 'DELETE'
            ? {}
            : { json: { message: 'Taken over', email: 'new-invite@example.com' } }),
        });
        expect(res.status, `${route.method} ${route.url}`).toBe(404);
        expect(await res.json()).toEqual({ error: `Route ${route.method} ${path} not found` });
        const unknown = await server.request(`${path}-nope`, {
          method: route.method,
          token: user.token,
        });
        expect(unknown.status).toBe(404);
      }
    }
    expect(await (await server.request('/api/alerts/latest')).json()).toEqual(alertBefore);
    expect((await server.request('/api/user', { token: owner.token })).status).toBe(200);
    const invited = await server.app.db.selectFrom('invitations').select('email').execute();
    expect(invited).toEqual([]);
  });

  it('lets the owner read every protected GET route without parameters, and the operator every one', async () => {
    const gets = (list: typeof routes) =>
      list().filter((r) => r.method === 'GET' && !r.url.includes(':'));
    expect(gets(operatorRoutes).length).toBeGreaterThanOrEqual(2);
    for (const [who, token, list] of [
      ['owner', owner.token, userRoutes],
      ['operator', operator.token, () => routes().filter((r) => r.authenticated)],
    ] as const) {
      for (const route of gets(list)) {
        const res = await server.request(route.url, { token });
        expect(res.status, `${route.url} as ${who}`).toBe(200);
      }
    }
  });
});
