import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../test-app';

/**
 * Malformed JSON, wrong types, huge and odd strings, broken multipart bodies and hostile file
 * names thrown at every route: never a 500, never a crash, always the product's error format,
 * and the user's stored files and profile unchanged.
 */
// Routes left out, and why: page analysis would resolve random host names (traffic must stay on
// this machine; those routes have their own refusal tests); these end the session or delete data
// by design; contact needs a solved captcha.
const SKIP = new Set([
  'POST /api/accessibility-analysis',
  'POST /api/seo-analysis',
  'POST /api/logout',
  'DELETE /api/delete_account',
  'DELETE /api/delete_all_files',
  'DELETE /api/delete_file/:id',
]);

const hostileString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.constantFrom(
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'a\u0000b',
    '\u202Egnp.exe',
    'CON',
    'x'.repeat(70_000),
    '<script>alert(1)</script>',
    '%00',
    '${jndi:x}',
  ),
);
const jsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      'email',
      'password',
      'text',
      'new_name',
      'first_name',
      'file_id',
      'target_language',
      'format',
      'token',
      'message',
      'level',
      'current_password',
      'invite',
      'severity',
      'title',
    ),
    fc.oneof(hostileString, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer())),
  ),
);
const rawBody = fc.oneof(
  jsonValue.map((v) => ({ type: 'application/json', body: JSON.stringify(v) })),
  hostileString.map((s) => ({ type: 'application/json', body: s })),
  hostileString.map((s) => ({ type: 'application/x-www-form-urlencoded', body: s })),
  fc.tuple(hostileString, hostileString).map(([name, content]) => {
    const b = 'XyZ';
    return {
      type: `multipart/form-data; boundary=${b}`,
      body: `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name.replace(/"/g, '')}"\r\n\r\n${content}\r\n--${b}--\r\n`,
    };
  }),
  hostileString.map((s) => ({ type: 'multipart/form-data; boundary=XyZ', body: `--XyZ\r\n${s}` })),
  hostileString.map((s) => ({ type: 'text/plain', body: s })),
);

describe('hostile input at every route', () => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let bystander: Awaited<ReturnType<typeof registerUser>>;
  let fileId: number;

  beforeAll(async () => {
    server = await startTestServer();
    // The first account is the operator (no ADMIN_EMAILS): the admin routes get the same abuse.
    user = await registerUser(server);
    bystander = await registerUser(server);
    const form = new FormData();
    form.append('file', new Blob(['keep me']), 'keep.txt');
    fileId = (
      await (
        await server.request('/api/upload_file', { method: 'POST', token: user.token, body: form })
      ).json()
    ).file.id;
  });
  afterAll(() => server.close());

  const snapshot = async () => ({
    files: await (await server.request('/api/my_files', { token: user.token })).json(),
    download: await (
      await server.request(`/api/download_file/${fileId}`, { token: user.token })
    ).text(),
    profile: await (await server.request('/api/user', { token: user.token })).json(),
    bystander: await (await server.request('/api/user', { token: bystander.token })).json(),
  });

  it('never answers 500, always answers errors as { error }, and loses nothing', async () => {
    const before = await snapshot();
    const routes = server.app.routeTable.filter(
      (r) => r.url.startsWith('/api/') && !SKIP.has(`${r.method} ${r.url}`),
    );
    expect(routes.length).toBeGreaterThan(20);
    const ids = fc.oneof(
      fc.constant(String(fileId)),
      fc.constantFrom('-1', '0', '1e99', 'abc', '..%2F..', '%00', '9'.repeat(40)),
    );

    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(rawBody, ids, async (input, id) => {
          const path = route.url.replace(/:\w+/g, encodeURIComponent(id));
          const hasBody = route.method !== 'GET';
          const res = await server.request(path, {
            method: route.method,
            token: user.token,
            ...(hasBody ? { body: input.body, headers: { 'content-type': input.type } } : {}),
          });
          const text = await res.text();
          expect(res.status, `${route.method} ${path} → ${text.slice(0, 200)}`).not.toBe(500);
          expect(res.status).toBeLessThan(600);
          // Health and readiness answer their own shape (503 = not ready), by design.
          const healthRoute = route.url === '/api/health' || route.url === '/api/ready';
          if (res.status >= 400 && !healthRoute) {
            expect(() => JSON.parse(text), `${route.method} ${path}`).not.toThrow();
            expect(JSON.parse(text)).toHaveProperty('error');
          }
        }),
        { numRuns: 12, seed: 20261122 },
      );
    }

    // Uploads and renames of hostile names may legitimately add or rename files; the original
    // file's bytes must survive everything, and no listed name may carry a path or control char.
    const after = await snapshot();
    expect(after.download).toBe(before.download);
    // Names may change (PUT /api/user is one of the routes); who they are, and may do, may not.
    for (const who of ['profile', 'bystander'] as const) {
      expect(after[who]).toMatchObject({
        email: before[who].email,
        role: before[who].role,
        created_at: before[who].created_at,
      });
    }
    expect(before.profile.role).toBe('operator');
    for (const f of after.files.files as { file_name: string }[]) {
      expect(f.file_name).not.toMatch(/[/\\]/);
      expect(
        [...f.file_name].some((c) => c.charCodeAt(0) < 0x20),
        f.file_name,
      ).toBe(false);
    }
  }, 180_000);

  it('never serves uploaded content as active HTML or script', async () => {
    const form = new FormData();
    form.append('file', new Blob(['<html><script>alert(1)</script></html>']), 'page.txt');
    const up = await (
      await server.request('/api/upload_file', { method: 'POST', token: user.token, body: form })
    ).json();
    for (const path of [`/api/download_file/${up.file.id}`, `/api/preview_file/${up.file.id}`]) {
      const res = await server.request(path, { token: user.token });
      expect(res.headers.get('content-type') ?? '', path).not.toMatch(/text\/html|javascript|svg/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
