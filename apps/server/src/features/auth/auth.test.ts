import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_REQUESTED_MESSAGE } from '@inkwell/contract';
import { startSmtpTestServer, decodeQuotedPrintable } from '../../../test/smtp-test-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { hashToken } from '../../lib/opaque-token';

describe.each(testDialects())('auth over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    server = await startTestServer({
      dialect,
      env: {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'http://inkwell.test',
        BASE_PATH: '/assistant/',
        AUTH_RATE_LIMIT: '1000',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
  });

  const post = (path: string, json: unknown, token?: string) =>
    server.request(path, { method: 'POST', json, token });

  it('registers, answers tokens and the first name, and the access token works', async () => {
    const res = await post('/api/register', {
      email: 'Grace@Example.com',
      password: 'a long password',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      first_name: 'Grace',
    });
    const me = await server.request('/api/user', { token: body.access_token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      email: 'grace@example.com',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
  });

  it('refuses a second account for the same email in any case with 409', async () => {
    const user = await registerUser(server);
    const res = await post('/api/register', {
      email: user.email.toUpperCase(),
      password: 'another password',
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'Email already exists' });
  });

  it.each([
    [{ password: 'long enough' }, 'email: Required'],
    [{ email: 'not-an-email', password: 'long enough' }, 'email: Invalid email address'],
    [
      { email: 'x@example.com', password: 'short' },
      'password: Password must be at least 8 characters',
    ],
    [{ email: 'x@example.com' }, 'password: Required'],
  ])('rejects a bad registration %j with 400', async (body, error) => {
    const res = await post('/api/register', body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error });
  });

  it('rejects malformed JSON with 400 in the error format', async () => {
    const res = await server.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toHaveProperty('error');
  });

  it('logs in with the right password only, and the same error for an unknown email', async () => {
    const user = await registerUser(server);
    const ok = await post('/api/login', { email: user.email, password: user.password });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ first_name: 'Ada', access_token: expect.any(String) });
    const wrong = await post('/api/login', { email: user.email, password: 'wrong password' });
    const unknown = await post('/api/login', {
      email: 'nobody@example.com',
      password: 'wrong password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('rotates refresh tokens and revokes the family when a rotated one is replayed', async () => {
    const user = await registerUser(server);
    const first = await post('/api/token/refresh', undefined, user.refresh_token);
    expect(first.status).toBe(200);
    const rotated = await first.json();
    expect(rotated.refresh_token).not.toBe(user.refresh_token);
    expect((await server.request('/api/user', { token: rotated.access_token })).status).toBe(200);

    const replay = await post('/api/token/refresh', undefined, user.refresh_token);
    expect(replay.status).toBe(401);
    // The thief's replay ended the whole session: the newest tokens are dead too.
    expect((await post('/api/token/refresh', undefined, rotated.refresh_token)).status).toBe(401);
    expect((await server.request('/api/user', { token: rotated.access_token })).status).toBe(401);
  });

  it('refuses refresh without a token or with an unknown one', async () => {
    expect((await post('/api/token/refresh', undefined)).status).toBe(401);
    expect((await post('/api/token/refresh', undefined, 'not-a-token')).status).toBe(401);
  });

  it('logout ends the session: its access and refresh tokens stop working', async () => {
    const user = await registerUser(server);
    const out = await post('/api/logout', undefined, user.token);
    expect(out.status).toBe(200);
    expect((await server.request('/api/user', { token: user.token })).status).toBe(401);
    expect((await post('/api/token/refresh', undefined, user.refresh_token)).status).toBe(401);
  });

  it('rejects missing, malformed, wrongly signed, expired and never-expiring access tokens with 401', async () => {
    const user = await registerUser(server);
    const claims = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString());
    const forged = await new SignJWT({ sid: claims.sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('x'.repeat(48)));
    const key = new TextEncoder().encode(server.app.config.JWT_SECRET);
    const expired = await new SignJWT({ sid: claims.sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const endless = await new SignJWT({ sid: claims.sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .sign(key);
    for (const token of [
      undefined,
      'garbage',
      `${user.token}x`,
      forged,
      expired,
      endless,
      user.refresh_token,
    ]) {
      const res = await server.request('/api/user', { token });
      expect(res.status, String(token)).toBe(401);
      expect(await res.json()).toHaveProperty('error');
    }
  });

  /** Asks for a reset link for `email` and reads its token from the mail the SMTP server got. */
  async function requestResetToken(email: string): Promise<string> {
    const before = smtp.mails.length;
    const res = await post('/api/request_password_reset', { email });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });

    const mail = await smtp.waitForMail(before + 1);
    expect(mail.to).toEqual([email]);
    const body = decodeQuotedPrintable(mail.raw);
    const link = body.match(/http:\/\/inkwell\.test\/assistant\/reset-password\?token=([\w%-]+)/);
    expect(link).not.toBeNull();
    return decodeURIComponent(link![1]!);
  }

  it('resets a password through the mailed single-use link', async () => {
    const user = await registerUser(server);
    const token = await requestResetToken(user.email);

    const reset = await post('/api/reset_password', { token, password: 'brand new password' });
    expect(reset.status).toBe(200);
    expect((await post('/api/login', { email: user.email, password: user.password })).status).toBe(
      401,
    );
    expect(
      (await post('/api/login', { email: user.email, password: 'brand new password' })).status,
    ).toBe(200);
    // Old sessions end with the password change; the link works once only.
    expect((await server.request('/api/user', { token: user.token })).status).toBe(401);
    const again = await post('/api/reset_password', { token, password: 'another new password' });
    expect(again.status).toBe(400);
  });

  const resetWith = (token: string, password: string) =>
    post('/api/reset_password', { token, password });
  const loginStatus = async (email: string, password: string) =>
    (await post('/api/login', { email, password })).status;

  it('ends every older reset link of the user when one of them is used', async () => {
    const user = await registerUser(server);
    const older = await requestResetToken(user.email);
    const newer = await requestResetToken(user.email);
    expect((await resetWith(newer, 'the newest password')).status).toBe(200);
    const stale = await resetWith(older, 'an attacker password');
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({
      error: 'This reset link is invalid or has expired. Please request a new one.',
    });
    expect(await loginStatus(user.email, 'the newest password')).toBe(200);
    expect(await loginStatus(user.email, 'an attacker password')).toBe(401);
  });

  it('ends every reset link of the user when the password is changed', async () => {
    const user = await registerUser(server);
    const link = await requestResetToken(user.email);
    const change = await server.request('/api/change_password', {
      method: 'POST',
      token: user.token,
      json: { current_password: user.password, new_password: 'changed on purpose' },
    });
    expect(change.status).toBe(200);
    expect((await resetWith(link, 'an attacker password')).status).toBe(400);
    expect(await loginStatus(user.email, 'changed on purpose')).toBe(200);
  });

  it('ends every reset link of the user when the email is changed', async () => {
    const user = await registerUser(server);
    const link = await requestResetToken(user.email);
    const change = await server.request('/api/user', {
      method: 'PUT',
      token: user.token,
      json: { email: `moved-${user.email}`, current_password: user.password },
    });
    expect(change.status).toBe(200);
    expect((await resetWith(link, 'an attacker password')).status).toBe(400);
    expect(await loginStatus(`moved-${user.email}`, user.password)).toBe(200);
  });

  it('refuses a reset link once its hour has passed, and accepts it just before', async () => {
    const user = await registerUser(server);
    const token = await requestResetToken(user.email);
    const row = await server.app.db
      .selectFrom('password_resets')
      .select(['id', 'created_at', 'expires_at'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    const hour = 60 * 60 * 1000;
    const ttl = Date.parse(row.expires_at) - Date.parse(row.created_at);
    expect(ttl).toBeGreaterThan(hour - 5000);
    expect(ttl).toBeLessThanOrEqual(hour);

    // The clock moves on by the link's hour and a second: the stored times move back by as much.
    const shift = (ms: number) => (iso: string) => new Date(Date.parse(iso) - ms).toISOString();
    const setTimes = (created_at: string, expires_at: string) =>
      server.app.db
        .updateTable('password_resets')
        .set({ created_at, expires_at })
        .where('id', '=', row.id)
        .execute();
    const late = shift(hour + 1000);
    await setTimes(late(row.created_at), late(row.expires_at));
    const expired = await post('/api/reset_password', { token, password: 'too late password' });
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({
      error: 'This reset link is invalid or has expired. Please request a new one.',
    });
    expect((await post('/api/login', { email: user.email, password: user.password })).status).toBe(
      200,
    );
    expect(
      (await post('/api/login', { email: user.email, password: 'too late password' })).status,
    ).toBe(401);

    // The same link a minute before its end: only the time refused it.
    const early = shift(hour - 60_000);
    await setTimes(early(row.created_at), early(row.expires_at));
    expect(
      (await post('/api/reset_password', { token, password: 'in time password' })).status,
    ).toBe(200);
  });

  it('answers the same message for an unknown email and sends no mail', async () => {
    const before = smtp.mails.length;
    const res = await post('/api/request_password_reset', { email: 'ghost@example.com' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    // The mail would follow the answer: a known account's reset asked for afterwards is waited
    // for, and by the time its mail is there the unknown address's lookup (started first, with
    // less to do) is done. Only that mail arrived.
    const known = await registerUser(server);
    await requestResetToken(known.email);
    expect(smtp.mails.slice(before).map((m) => m.to)).toEqual([[known.email]]);
  });

  it('refuses an invalid reset token and a weak new password', async () => {
    expect(
      (await post('/api/reset_password', { token: 'nope', password: 'long enough pw' })).status,
    ).toBe(400);
    expect((await post('/api/reset_password', { token: 'nope', password: 'x' })).status).toBe(400);
  });
});
