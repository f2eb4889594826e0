import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecaptchaTestServer } from '../../../test/recaptcha-test-server';
import { startTestServer, type TestServer } from '../../../test/test-app';

const SECRET = 'recaptcha-secret-for-tests';
const NOT_A_ROBOT = { error: 'Please verify that you are not a robot.' };

describe('contact form with CAPTCHA=recaptcha against a local siteverify server', () => {
  let siteverify: Awaited<ReturnType<typeof startRecaptchaTestServer>>;
  let server: TestServer;
  beforeAll(async () => {
    siteverify = await startRecaptchaTestServer({
      secret: SECRET,
      validTokens: ['token-a', 'token-b'],
    });
    server = await startTestServer({
      env: {
        CAPTCHA: 'recaptcha',
        RECAPTCHA_SECRET: SECRET,
        RECAPTCHA_SITE_KEY: 'site-key-123',
        RECAPTCHA_VERIFY_URL: siteverify.url,
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await siteverify.close();
  });

  const send = (token: string, email: string) =>
    server.request('/api/contact', {
      method: 'POST',
      json: { name: 'Ada', email, message: 'Hello from reCAPTCHA', recaptchaToken: token },
    });
  const stored = async (email: string) =>
    (
      await server.app.db
        .selectFrom('contact_messages')
        .select('id')
        .where('email', '=', email)
        .execute()
    ).length;

  it('tells the web app to render reCAPTCHA with the site key, and allows its scripts in the CSP', async () => {
    const res = await server.request('/api/config');
    expect(await res.json()).toMatchObject({
      captcha: 'recaptcha',
      recaptchaSiteKey: 'site-key-123',
    });
    const csp = (await server.request('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain('https://www.google.com/recaptcha/');
  });

  it('verifies the token with the secret and the client address, then stores the message', async () => {
    const res = await send('token-a', 'ok@example.com');
    expect(res.status).toBe(200);
    expect(siteverify.calls.at(-1)).toEqual({
      secret: SECRET,
      response: 'token-a',
      remoteip: '127.0.0.1',
    });
    expect(await stored('ok@example.com')).toBe(1);
  });

  it('refuses a token that siteverify rejects, or one used twice, and stores nothing', async () => {
    const forged = await send('forged-token', 'forged@example.com');
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual(NOT_A_ROBOT);
    const replay = await send('token-a', 'replay@example.com');
    expect(replay.status).toBe(400);
    expect(await stored('forged@example.com')).toBe(0);
    expect(await stored('replay@example.com')).toBe(0);
  });

  it('fails closed when siteverify errors, answers garbage or is unreachable', async () => {
    for (const how of ['http-500', 'not-json'] as const) {
      siteverify.fail(how);
      const res = await send('token-b', `${how}@example.com`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(NOT_A_ROBOT);
      expect(await stored(`${how}@example.com`)).toBe(0);
    }
    siteverify.fail('ok');
    await siteverify.close();
    const down = await send('token-b', 'down@example.com');
    expect(down.status).toBe(400);
    expect(await stored('down@example.com')).toBe(0);
  });
});
