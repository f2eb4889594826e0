import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { mailedInvitation } from '../../../test/outbox';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { createInvitation, INVITATION_INVALID, INVITATION_OTHER_EMAIL } from '../invitations';
import { REGISTRATION_CLOSED, REGISTRATION_INVITE_ONLY } from './registration-policy';

const PASSWORD = 'a long enough password';
const register = (server: TestServer, email: string, invite?: string) =>
  server.request('/api/register', {
    method: 'POST',
    json: { email, password: PASSWORD, ...(invite ? { invite } : {}) },
  });
const accounts = async (server: TestServer) =>
  (await server.app.db.selectFrom('users').select('email').orderBy('id').execute()).map(
    (u) => u.email,
  );
/** Invites `email` the way an operator does (the Admin page and the CLI call the same service). */
async function invite(server: TestServer, email: string) {
  await createInvitation(
    { db: server.app.db, mailer: server.app.mailer, registerUrl: 'http://inkwell.test/register' },
    { email, invitedBy: null, send: true },
  );
  return mailedInvitation(server.dataDir, email).token;
}

describe.each(testDialects())('REGISTRATION over HTTP (%s)', (dialect) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('closed: refuses every sign-up with 403 and a clear message, and creates nothing', async () => {
    server = await startTestServer({ dialect, env: { REGISTRATION: 'closed' } });
    const res = await register(server, 'ada@example.com');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: REGISTRATION_CLOSED });
    expect(await accounts(server)).toEqual([]);
  });

  it('invite: only the invited address, only with its link, once', async () => {
    server = await startTestServer({ dialect, env: { REGISTRATION: 'invite' } });
    const cases: [string, string | undefined, number, string][] = [
      ['ada@example.com', undefined, 403, REGISTRATION_INVITE_ONLY],
      ['ada@example.com', 'not-a-real-token', 400, INVITATION_INVALID],
    ];
    const token = await invite(server, 'ada@example.com');
    cases.push(['eve@example.com', token, 400, INVITATION_OTHER_EMAIL]);
    for (const [email, given, status, error] of cases) {
      const res = await register(server, email, given);
      expect(res.status, `${email} ${given}`).toBe(status);
      expect(await res.json()).toEqual({ error });
    }
    expect(await accounts(server)).toEqual([]);

    expect((await register(server, 'ADA@example.com', token)).status).toBe(201);
    expect(await accounts(server)).toEqual(['ada@example.com']);
    const again = await register(server, 'ada@example.com', token);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: INVITATION_INVALID });
  });

  it('invite: an expired link is refused; using one link ends the address’s other links', async () => {
    server = await startTestServer({ dialect, env: { REGISTRATION: 'invite' } });
    const first = await invite(server, 'bob@example.com');
    const second = await invite(server, 'bob@example.com');
    await server.app.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('email', '=', 'bob@example.com')
      .where('id', '=', (eb) => eb.selectFrom('invitations').select((e) => e.fn.max('id').as('m')))
      .execute();
    expect((await register(server, 'bob@example.com', second)).status).toBe(400);
    expect((await register(server, 'bob@example.com', first)).status).toBe(201);
    const open = await server.app.db
      .selectFrom('invitations')
      .select('id')
      .where('used_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
  });

  it('domain: the listed domains sign up, other addresses only with an invitation', async () => {
    server = await startTestServer({
      dialect,
      env: { REGISTRATION: 'domain', REGISTRATION_DOMAINS: 'Example.com, example.org' },
    });
    expect((await register(server, 'ada@example.com')).status).toBe(201);
    expect((await register(server, 'grace@example.org')).status).toBe(201);
    const outsider = await register(server, 'eve@example.com.evil.test');
    expect(outsider.status).toBe(403);
    expect(await outsider.json()).toEqual({
      error:
        'Sign-up on this server is limited to addresses at example.com, example.org, or by invitation.',
    });
    const token = await invite(server, 'guest@elsewhere.test');
    expect((await register(server, 'guest@elsewhere.test', token)).status).toBe(201);
    expect(await accounts(server)).toEqual([
      'ada@example.com',
      'grace@example.org',
      'guest@elsewhere.test',
    ]);
  });

  it('open (the default): anyone signs up; a stray invite token changes nothing', async () => {
    server = await startTestServer({ dialect });
    expect((await register(server, 'ada@example.com', 'whatever')).status).toBe(201);
  });
});

describe.each(testDialects())('operators (%s)', (dialect) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const roleOf = async (s: TestServer, email: string, password = PASSWORD) => {
    const login = await s.request('/api/login', { method: 'POST', json: { email, password } });
    const { access_token } = await login.json();
    return (await (await s.request('/api/user', { token: access_token })).json()).role;
  };

  it('without ADMIN_EMAILS the first account is the operator, even when many sign up at once', async () => {
    server = await startTestServer({ dialect });
    const emails = Array.from({ length: 6 }, (_, i) => `racer${i}@example.com`);
    const answers = await Promise.all(emails.map((e) => register(server!, e)));
    expect(answers.map((r) => r.status)).toEqual(emails.map(() => 201));
    // Each with the token its sign-up answered: no sign-in (a password check each) needed.
    const tokens = await Promise.all(
      answers.map(async (r) => ((await r.json()) as { access_token: string }).access_token),
    );
    const roles = await Promise.all(
      tokens.map(
        async (token) => (await (await server!.request('/api/user', { token })).json()).role,
      ),
    );
    expect(roles.filter((r) => r === 'operator')).toHaveLength(1);
    expect(roles.filter((r) => r === 'user')).toHaveLength(emails.length - 1);
    const first = await server.app.db.selectFrom('first_account').selectAll().execute();
    expect(first).toHaveLength(1);
    const operator = emails[roles.indexOf('operator')];
    const row = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', operator!)
      .executeTakeFirstOrThrow();
    expect(first[0]!.user_id).toBe(row.id);
  });

  it('the first account stays the only one: deleting it hands the role to no one', async () => {
    server = await startTestServer({ dialect });
    const founder = await (await register(server, 'founder@example.com')).json();
    await server.request('/api/delete_account', {
      method: 'DELETE',
      token: founder.access_token,
      json: { current_password: PASSWORD },
    });
    await register(server, 'next@example.com');
    expect(await roleOf(server, 'next@example.com')).toBe('user');
  });

  it('with ADMIN_EMAILS exactly the listed addresses are operators; no one can move onto one', async () => {
    server = await startTestServer({ dialect, env: { ADMIN_EMAILS: 'Boss@Example.com' } });
    await register(server, 'early@example.com');
    await register(server, 'boss@example.com');
    expect(await roleOf(server, 'early@example.com')).toBe('user');
    expect(await roleOf(server, 'boss@example.com')).toBe('operator');

    const other = await (await register(server, 'sly@example.com')).json();
    await server.app.db.deleteFrom('users').where('email', '=', 'boss@example.com').execute();
    const move = await server.request('/api/user', {
      method: 'PUT',
      token: other.access_token,
      json: { email: 'boss@example.com', current_password: PASSWORD },
    });
    expect(move.status).toBe(409);
    expect(await roleOf(server, 'sly@example.com')).toBe('user');
  });
});

describe('accounts settings', () => {
  const dir = { DATA_DIR: '/tmp/inkwell-cfg-test' };
  it('refuses wrong values at start-up, naming the setting', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ REGISTRATION: 'maybe' }, /REGISTRATION/],
      [{ REGISTRATION: 'domain' }, /REGISTRATION_DOMAINS: required when REGISTRATION=domain/],
      [
        { REGISTRATION: 'domain', REGISTRATION_DOMAINS: 'example.com,@bad' },
        /REGISTRATION_DOMAINS: must be a comma list of domain names \(example\.com\) \("@bad" is not\)/,
      ],
      [{ ADMIN_EMAILS: 'boss@example.com, nobody' }, /ADMIN_EMAILS: .*"nobody" is not/],
      [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN: must be at least 16 characters/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig({ ...dir, ...env }), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig({ ...dir, ...env }), JSON.stringify(env)).toThrow(message);
    }
    const ok = loadConfig({ ...dir, ADMIN_EMAILS: ' Boss@Example.com ,ops@example.com' });
    expect(ok.ADMIN_EMAILS).toEqual(['boss@example.com', 'ops@example.com']);
    expect(ok.REGISTRATION).toBe('open');
  });
});
