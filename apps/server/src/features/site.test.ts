import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { AUTH_WINDOW_SECONDS, attemptsPastLimit, expectRateLimited } from '../../test/rate-limit';
import { solveCaptcha } from '../../test/captcha';
import { startSmtpTestServer } from '../../test/smtp-test-server';
import { startTestServer, testDialects, type TestServer } from '../../test/test-app';
import { runAlertCli } from './alerts';

/** The Content-Security-Policy header as directive → sources. */
function cspOf(res: Response): Record<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe.each(testDialects())('site endpoints over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer({
      dialect,
      env: { SMTP_URL: smtp.url, CONTACT_TO: 'team@inkwell.test', TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  it('shows no alert until an operator sets one, then hides it again after --clear', async () => {
    // The CLI opens the database itself, the way an operator runs it beside the server.
    const env = { DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl };
    expect(await (await server.request('/api/alerts/latest')).json()).toEqual({
      message: '',
      severity: 'info',
      isVisible: false,
    });
    expect(
      await runAlertCli(
        ['--message', 'Maintenance at 6pm', '--severity', 'warning', '--title', 'Heads up'],
        env,
      ),
    ).toMatch(/Alert set/);
    expect(await (await server.request('/api/alerts/latest')).json()).toEqual({
      message: 'Maintenance at 6pm',
      severity: 'warning',
      title: 'Heads up',
      isVisible: true,
    });
    await runAlertCli(['--clear'], env);
    expect((await (await server.request('/api/alerts/latest')).json()).isVisible).toBe(false);
    await expect(runAlertCli(['--message', 'x', '--severity', 'loud'], env)).rejects.toThrow(
      /severity must be one of/,
    );
  });

  it('takes client log lines, even malformed ones, without failing', async () => {
    const ok = await server.request('/api/logs', {
      method: 'POST',
      json: { message: 'boom', level: 'error' },
    });
    expect(ok.status).toBe(204);
    const odd = await server.request('/api/logs', {
      method: 'POST',
      json: { message: { nested: true }, level: 42 },
    });
    expect(odd.status).toBe(204);
    const huge = await server.request('/api/logs', {
      method: 'POST',
      json: { message: 'x'.repeat(10_000) },
    });
    expect(huge.status).toBe(204);
  });

  it('limits client log lines to 120 a minute per address, and only then answers 429', async () => {
    // Behind the trusted proxy each X-Forwarded-For is a client of its own: these attempts spend
    // neither the other tests' budget nor one another's.
    const from = (address: string) => ({
      method: 'POST',
      headers: { 'x-forwarded-for': address },
      json: { message: 'tick', level: 'info' },
    });
    const limited = await attemptsPastLimit(120, 204, () =>
      server.request('/api/logs', from('203.0.113.10')),
    );
    await expectRateLimited(limited, 60);
    expect((await server.request('/api/logs', from('203.0.113.11'))).status).toBe(204);
  });

  it('limits contact messages to AUTH_RATE_LIMIT (default 10) per address', async () => {
    const attempt = (address: string) =>
      server.request('/api/contact', {
        method: 'POST',
        headers: { 'x-forwarded-for': address },
        json: { name: 'Ada', email: 'ada@example.com', message: 'Hi', recaptchaToken: 'bad' },
      });
    const limited = await attemptsPastLimit(10, 400, () => attempt('203.0.113.20'));
    await expectRateLimited(limited, AUTH_WINDOW_SECONDS);
    expect((await attempt('203.0.113.21')).status).toBe(400);
  });

  it('accepts a contact message with a solved captcha once, stores it and mails the team', async () => {
    const token = await solveCaptcha(server);
    const form = {
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hello team',
      recaptchaToken: token,
    };
    const before = smtp.mails.length;
    const res = await server.request('/api/contact', { method: 'POST', json: form });
    expect(res.status).toBe(200);
    const mail = await smtp.waitForMail(before + 1);
    expect(mail.to).toEqual(['team@inkwell.test']);
    expect(mail.raw).toContain('Hello team');
    const stored = await server.app.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('email', '=', 'ada@example.com')
      .execute();
    expect(stored).toHaveLength(1);

    const replay = await server.request('/api/contact', { method: 'POST', json: form });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'Please verify that you are not a robot.' });
  });

  it('refuses a contact message with a forged or missing captcha, or missing fields', async () => {
    const forged = Buffer.from(
      JSON.stringify({
        algorithm: 'SHA-256',
        challenge: 'a',
        number: 1,
        salt: 's',
        signature: 'x',
      }),
    ).toString('base64');
    const base = { name: 'Ada', email: 'ada@example.com', message: 'Hi' };
    expect(
      (
        await server.request('/api/contact', {
          method: 'POST',
          json: { ...base, recaptchaToken: forged },
        })
      ).status,
    ).toBe(400);
    const missing = await server.request('/api/contact', { method: 'POST', json: base });
    expect(missing.status).toBe(400);
    const noName = await server.request('/api/contact', {
      method: 'POST',
      json: { ...base, name: ' ', recaptchaToken: forged },
    });
    expect(await noName.json()).toEqual({ error: 'name: Name is required' });
  });

  it('answers the region from the offline GeoIP database, null when unknown', async () => {
    const unknown = await server.request('/api/region');
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ country: null });
    // Behind a trusted proxy the client address comes from X-Forwarded-For (only a header; no traffic).
    const res = await server.request('/api/region', {
      headers: { 'x-forwarded-for': '81.2.69.160' },
    });
    expect(await res.json()).toEqual({ country: 'GB' });
  });

  it('reports health, the client config and the OpenAPI document', async () => {
    const health = await (await server.request('/api/health')).json();
    expect(health).toMatchObject({ database: 'ok' });
    // No model is configured in this test: alive, but not ready to serve AI. These routes are
    // public: they say ok or not, never the path or setting behind it.
    const ready = await server.request('/api/ready');
    expect(ready.status).toBe(503);
    const readyText = await ready.text();
    expect(JSON.parse(readyText)).toEqual({
      status: 'degraded',
      database: 'ok',
      model: 'unavailable',
      storage: 'ok',
    });
    expect(readyText).not.toMatch(/MODEL_|DATA_DIR|AI_BASE_URL|\.gguf|\//);
    expect(JSON.stringify(health)).not.toMatch(/MODEL_|DATA_DIR|AI_BASE_URL|\.gguf|\//);
    const metrics = await (await server.request('/metrics')).text();
    expect(metrics).toContain(
      'inkwell_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/health"',
    );
    const config = await (await server.request('/api/config')).json();
    expect(config).toEqual({ captcha: 'altcha', promptLimit: 20 });
    const docs = await (await server.request('/api/docs')).json();
    expect(docs.openapi).toBe('3.1.0');
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/register', '/api/user']),
    );
  });

  it('documents every API route with its method in the OpenAPI document', async () => {
    // Routes left out of the document on purpose (`schema: { hide: true }`).
    const hidden = new Set(['GET /api/docs']);
    const docs = await (await server.request('/api/docs')).json();
    const routes = server.app.routeTable
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes).toEqual(expect.arrayContaining([...hidden]));
    const documented = new Set(
      Object.entries(docs.paths as Record<string, Record<string, unknown>>).flatMap(
        ([path, operations]) =>
          Object.keys(operations).map(
            (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
          ),
      ),
    );
    expect(routes.filter((r) => !hidden.has(r) && !documented.has(r))).toEqual([]);
    expect([...hidden].filter((r) => documented.has(r))).toEqual([]);
  });

  it('answers unknown API routes with 404 in the error format and sets security headers', async () => {
    const res = await server.request('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toHaveProperty('error');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = cspOf(res);
    expect(csp['script-src']).toEqual(["'self'"]);
    // No analytics configured: nothing but the app itself may be contacted.
    expect(csp['connect-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});

describe('Content-Security-Policy with an analytics script', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ANALYTICS_SCRIPT_URL: 'https://stats.example.com/js/script.js' },
    });
  });
  afterAll(() => server.close());

  it("allows the script's origin to load, and to receive its beacons and pixels", async () => {
    const config = await server.request('/api/config');
    expect(await config.json()).toMatchObject({
      analyticsScriptUrl: 'https://stats.example.com/js/script.js',
    });
    const csp = cspOf(config);
    expect(csp['script-src']).toEqual(["'self'", 'https://stats.example.com']);
    expect(csp['connect-src']).toEqual(["'self'", 'https://stats.example.com']);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://stats.example.com']);
    expect(csp['default-src']).toEqual(["'self'"]);
  });
});

describe('configuration', () => {
  it('stops with a message naming each wrong setting', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: '/tmp/inkwell-cfg-test' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ PORT: 'eighty', DATA_DIR: '/tmp/inkwell-cfg-test' })).toThrow(/PORT/);
    expect(() =>
      loadConfig({ DATABASE_URL: 'mysql://x', DATA_DIR: '/tmp/inkwell-cfg-test' }),
    ).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ CAPTCHA: 'recaptcha', DATA_DIR: '/tmp/inkwell-cfg-test' })).toThrow(
      /RECAPTCHA_SECRET/,
    );
  });

  it("stops on PostgreSQL without JWT_SECRET: a key generated per app server refuses the others' tokens", () => {
    const shared = {
      DATABASE_URL: 'postgres://db.invalid/inkwell',
      DATA_DIR: '/tmp/inkwell-cfg-test',
    };
    expect(() => loadConfig(shared)).toThrow(ConfigError);
    expect(() => loadConfig(shared)).toThrow(/JWT_SECRET: required when DATABASE_URL is set/);
    const secret = 'a shared secret of more than 32 characters';
    expect(loadConfig({ ...shared, JWT_SECRET: secret }).JWT_SECRET).toBe(secret);
  });

  it('keeps a generated JWT secret in DATA_DIR across restarts', () => {
    const a = loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test' });
    const b = loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test' });
    expect(a.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(b.JWT_SECRET).toBe(a.JWT_SECRET);
    expect(a.PORT).toBe(8080);
    expect(a.BASE_PATH).toBe('/');
  });
});
