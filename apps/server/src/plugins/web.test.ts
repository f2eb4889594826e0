import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROUTES } from '@inkwell/contract';
import { startTestServer, type TestServer } from '../../test/test-app';

/**
 * The web app's pages (issue 40): its screens answer 200, any other path under the base 404 with
 * the app (which draws its 404 page), as a crawler or an SEO audit expects of a missing page.
 * /account answers 200 to a signed-out visitor: the app, not the server, sends them to /login.
 */
describe.each(['/', '/assistant/'])('web app pages under %s', (base) => {
  let dist: string;
  let server: TestServer;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'inkwell-web-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head></head><body>app</body></html>',
    );
    writeFileSync(path.join(dist, 'terms.html'), '<!doctype html><title>Terms</title>');
    server = await startTestServer({ env: { BASE_PATH: base }, webDistDir: dist });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (p: string) => fetch(`${server.url}${base}${p}`, { redirect: 'manual' });

  it('answers 200 with the app for each of its screens', async () => {
    for (const route of APP_ROUTES) {
      for (const p of [
        route.slice(1),
        `${route.slice(1)}/`.replace(/^\/$/, ''),
        `${route.slice(1)}?x=1`,
      ]) {
        const res = await get(p);
        expect(res.status, `${base}${p}`).toBe(200);
        expect(await res.text()).toContain(`<base href="${base}" />`);
      }
    }
  });

  it('answers 404 with the app for any other page, and still serves its files', async () => {
    for (const p of ['no/such/page', 'accounts', 'faq/extra', 'login.php']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<body>app</body>');
    }
    expect((await get('terms.html')).status).toBe(200);
    const api = await fetch(`${server.url}/api/no-such-route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'Route GET /api/no-such-route not found' });
  });
});
