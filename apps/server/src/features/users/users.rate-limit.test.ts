import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_NAMESPACE } from '../../plugins/rate-limit';
import {
  AUTH_WINDOW_SECONDS,
  attemptsPastLimit,
  expectRateLimited,
} from '../../../test/rate-limit';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';

// The current password asked by the email change, the password change and the account deletion
// counts against the sign-in limit (AUTH_RATE_LIMIT), as /api/login does: a stolen session cannot
// guess it at hash speed. Each test speaks from addresses of its own (X-Forwarded-For).

const LIMIT = 3;
const WRONG = 'not the password';
const env = { AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' };

interface User {
  email: string;
  password: string;
  token: string;
}

let registered = 0;
/** A new account, registered from an address of its own (sign-ups have a limit too). */
async function registerUser(
  server: TestServer,
  from = `203.0.113.${registered + 1}`,
): Promise<User> {
  registered += 1;
  const email = `limited-${registered}-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const res = await server.request('/api/register', {
    method: 'POST',
    json: { email, password },
    headers: { 'x-forwarded-for': from },
  });
  expect(res.status).toBe(201);
  const { access_token } = (await res.json()) as { access_token: string };
  return { email, password, token: access_token };
}
const checks = {
  'PUT /api/user': (u: User, current_password: string) => ({
    method: 'PUT',
    path: '/api/user',
    json: { email: `new-${u.email}`, current_password },
  }),
  'POST /api/change_password': (_u: User, current_password: string) => ({
    method: 'POST',
    path: '/api/change_password',
    json: { current_password, new_password: 'another long password' },
  }),
  'DELETE /api/delete_account': (_u: User, current_password: string) => ({
    method: 'DELETE',
    path: '/api/delete_account',
    json: { current_password },
  }),
};

const send = (
  server: TestServer,
  u: User,
  password: string,
  route: keyof typeof checks,
  from: string,
) => {
  const { method, path, json } = checks[route](u, password);
  return server.request(path, {
    method,
    json,
    token: u.token,
    headers: { 'x-forwarded-for': from },
  });
};

describe.each(testDialects())('password checks under the sign-in limit (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env });
  });
  afterAll(() => server?.close());

  let n = 0;
  /** An address no other test uses. */
  const address = () => `198.51.100.${++n}`;

  it.each(Object.keys(checks) as (keyof typeof checks)[])(
    '%s: a burst of wrong passwords gets at most AUTH_RATE_LIMIT checks, the rest 429',
    async (route) => {
      const u = await registerUser(server);
      const from = address();
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => send(server, u, WRONG, route, from)),
      );
      const statuses = burst.map((r) => r.status);
      expect(statuses.filter((s) => s === 400)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - LIMIT);
      await expectRateLimited(
        burst.find((r) => r.status === 429)!,
        AUTH_WINDOW_SECONDS,
      );
      // Refused now even with the right password, and from another address: the account is limited.
      await expectRateLimited(await send(server, u, u.password, route, from), AUTH_WINDOW_SECONDS);
      const elsewhere = await send(server, u, u.password, route, address());
      await expectRateLimited(elsewhere, AUTH_WINDOW_SECONDS);
    },
  );

  it('shares the address budget with sign-ins, and gives back the right passwords', async () => {
    const u = await registerUser(server);
    const from = address();
    // Right passwords never stay counted: twice the limit of them, and all are judged.
    for (let i = 0; i < LIMIT * 2; i++) {
      const res = await send(server, u, u.password, 'PUT /api/user', from);
      expect(res.status, `check ${i + 1}`).toBe(200);
    }
    const v = await registerUser(server);
    const failures = await attemptsPastLimit(LIMIT, 400, () =>
      send(server, v, WRONG, 'POST /api/change_password', from),
    );
    await expectRateLimited(failures, AUTH_WINDOW_SECONDS);
    // The address spent its budget on these checks: it may not sign in either.
    const login = await server.request('/api/login', {
      method: 'POST',
      json: { email: v.email, password: v.password },
      headers: { 'x-forwarded-for': from },
    });
    await expectRateLimited(login, AUTH_WINDOW_SECONDS);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('password checks limited across app servers', () => {
  let redis: Redis;
  let a: TestServer;
  let b: TestServer;
  let accountKey = '';
  // Addresses of this run only (2001:db8::/32 documentation prefix): no parallel run shares them.
  const prefix = `2001:db8:${randomBytes(6).toString('hex').match(/.{4}/g)!.join(':')}::`;
  const address = (i: number) => `${prefix}${i + 1}`;

  beforeAll(async () => {
    redis = new Redis(process.env.TEST_REDIS_URL!);
    const shared = { ...env, REDIS_URL: process.env.TEST_REDIS_URL };
    a = await startTestServer({ env: shared });
    b = await startTestServer({ env: shared, sharing: a });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (redis) {
      // The counters of this run's addresses (sign-up, checks) and of its account only.
      const keys = await redis.keys(`${REDIS_NAMESPACE}*${prefix}*`);
      await redis.del(...keys, ...(accountKey ? [accountKey] : []));
      redis.disconnect();
    }
  });

  it('counts the account in Redis: every server and every address share its budget', async () => {
    const u = await registerUser(a, address(99));
    const { id } = await a.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', u.email)
      .executeTakeFirstOrThrow();
    accountKey = `${REDIS_NAMESPACE}POST/api/login-user:${id}`;
    // Left by an earlier run of a test on an account of the same id.
    await redis.del(accountKey);
    const attempt = (i: number) =>
      send(i % 2 ? b : a, u, WRONG, 'POST /api/change_password', address(i));
    await expectRateLimited(await attemptsPastLimit(LIMIT, 400, attempt), AUTH_WINDOW_SECONDS);
    expect(await redis.get(accountKey)).toBe(String(LIMIT));
  });
});
