import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { authRepo } from './auth.repo';

/**
 * A password change ends every other session. A sign-in (or a token refresh) that read the
 * account before the change and records its session after it must not outlive it: each is held
 * at the moment it has read the account, the password changes, then it goes on.
 */
describe.each(testDialects())('sessions against a password change (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => server?.close());
  afterEach(() => vi.restoreAllMocks());

  /** Holds the next call of `authRepo[name]` once it has run: `reached`, then `release()`. */
  function holdAfter<K extends 'findUserByEmail' | 'revokeRefreshToken'>(name: K) {
    const real = authRepo[name] as (...args: unknown[]) => Promise<unknown>;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let reach!: () => void;
    const reached = new Promise<void>((r) => (reach = r));
    vi.spyOn(authRepo, name).mockImplementationOnce((async (...args: unknown[]) => {
      const out = await real(...args);
      reach();
      await released;
      return out;
    }) as never);
    return { reached, release };
  }

  const changePassword = async (u: { token: string; password: string }) => {
    const res = await server.request('/api/change_password', {
      method: 'POST',
      token: u.token,
      json: { current_password: u.password, new_password: 'a brand new password' },
    });
    expect(res.status).toBe(200);
  };

  it('refuses a sign-in that checked the old password once the password has changed', async () => {
    const u = await registerUser(server);
    const held = holdAfter('findUserByEmail');
    const login = server.request('/api/login', {
      method: 'POST',
      json: { email: u.email, password: u.password },
    });
    await held.reached;
    await changePassword(u);
    held.release();
    const res = await login;
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Invalid email or password' });
    const now = await server.request('/api/login', {
      method: 'POST',
      json: { email: u.email, password: 'a brand new password' },
    });
    expect(now.status).toBe(200);
  });

  it('records no new token for a refresh under way while the password changed', async () => {
    const u = await registerUser(server);
    const other = await server.request('/api/login', {
      method: 'POST',
      json: { email: u.email, password: u.password },
    });
    const { refresh_token } = (await other.json()) as { refresh_token: string };
    const held = holdAfter('revokeRefreshToken');
    const refresh = server.request('/api/token/refresh', {
      method: 'POST',
      headers: { authorization: `Bearer ${refresh_token}` },
    });
    await held.reached;
    await changePassword(u);
    held.release();
    const res = await refresh;
    expect(res.status).toBe(401);
    const live = await server.app.db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('user_id', '=', server.app.accessTokens.verify(u.token)!.userId)
      .where('revoked_at', 'is', null)
      .execute();
    // Only the session that changed the password is left.
    expect(live).toHaveLength(1);
  });
});
