import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_WINDOW_SECONDS,
  attemptsPastLimit,
  expectRateLimited,
} from '../../../test/rate-limit';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';

// The limits on sign-in, registration and password resets (AUTH_RATE_LIMIT), apart from
// auth.test.ts's flows, each with a server set to a small limit.

describe.each(testDialects())('auth rate limiting (%s)', (dialect) => {
  const LIMIT = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { AUTH_RATE_LIMIT: String(LIMIT) } });
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown) => server.request(path, { method: 'POST', json });

  it('answers 429 with Retry-After after AUTH_RATE_LIMIT login attempts', async () => {
    const limited = await attemptsPastLimit(LIMIT, 401, () =>
      post('/api/login', { email: 'a@example.com', password: 'whatever1' }),
    );
    await expectRateLimited(limited, AUTH_WINDOW_SECONDS);
  });

  it('limits registrations, and a refused one creates no account', async () => {
    const email = (i: number) => `limited${i}-${dialect}@example.com`;
    const register = (i: number) =>
      post('/api/register', { email: email(i), password: 'long enough pw' });
    await expectRateLimited(await attemptsPastLimit(LIMIT, 201, register), AUTH_WINDOW_SECONDS);
    const accounts = await server.app.db
      .selectFrom('users')
      .select('email')
      .where('email', 'like', 'limited%')
      .execute();
    expect(accounts.map((a) => a.email).sort()).toEqual([email(0), email(1), email(2)]);
  });

  it('limits password-reset requests', async () => {
    const limited = await attemptsPastLimit(LIMIT, 200, (i) =>
      post('/api/request_password_reset', { email: `nobody${i}@example.com` }),
    );
    await expectRateLimited(limited, AUTH_WINDOW_SECONDS);
  });

  it('limits attempts at a reset token', async () => {
    const limited = await attemptsPastLimit(LIMIT, 400, (i) =>
      post('/api/reset_password', { token: `guess-${i}`, password: 'long enough pw' }),
    );
    await expectRateLimited(limited, AUTH_WINDOW_SECONDS);
  });
});

describe.each(testDialects())('sign-in limit (%s)', (dialect) => {
  const LIMIT = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      // Each test signs in from an address of its own (X-Forwarded-For), with a budget of its own.
      env: { AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' },
    });
  });
  afterAll(() => server.close());

  const post = (path: string, json: unknown, from?: string) =>
    server.request(path, {
      method: 'POST',
      json,
      headers: from ? { 'x-forwarded-for': from } : {},
    });

  it('judges at most AUTH_RATE_LIMIT of a burst of wrong passwords; the rest get 429 at once', async () => {
    const email = `burst-${dialect}@example.com`;
    const password = 'long enough pw';
    expect((await post('/api/register', { email, password }, '192.0.2.1')).status).toBe(201);
    const burst = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/login', { email, password: 'wrong password' }, '192.0.2.2'),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LIMIT);
    await expectRateLimited(
      burst.find((r) => r.status === 429)!,
      AUTH_WINDOW_SECONDS,
    );
    // Refused until the window ends, even with the right password; another address is not.
    expect((await post('/api/login', { email, password }, '192.0.2.2')).status).toBe(429);
    expect((await post('/api/login', { email, password }, '192.0.2.3')).status).toBe(200);
  });

  it('gives back the attempts whose password was right, also when they come at once', async () => {
    const email = `together-${dialect}@example.com`;
    const password = 'long enough pw';
    expect((await post('/api/register', { email, password }, '192.0.2.10')).status).toBe(201);
    const from = '192.0.2.11';
    // People of one office signing in at the same moment: every one gets in, and none stays
    // counted (else the first wrong password below would be refused instead of judged).
    const ok = await Promise.all(
      Array.from({ length: LIMIT }, () => post('/api/login', { email, password }, from)),
    );
    expect(ok.map((r) => r.status)).toEqual(Array(LIMIT).fill(200));
    const failures = await attemptsPastLimit(LIMIT, 401, () =>
      post('/api/login', { email, password: 'wrong password' }, from),
    );
    await expectRateLimited(failures, AUTH_WINDOW_SECONDS);
  });

  it('counts failed sign-ins only: many successful ones from one address are never refused', async () => {
    const email = `office-${dialect}@example.com`;
    const password = 'long enough pw';
    expect((await post('/api/register', { email, password })).status).toBe(201);
    for (let i = 0; i < LIMIT * 2; i++) {
      const ok = await post('/api/login', { email, password });
      expect(ok.status, `sign-in ${i + 1}`).toBe(200);
    }
    const failures = await attemptsPastLimit(LIMIT, 401, () =>
      post('/api/login', { email, password: 'wrong password' }),
    );
    await expectRateLimited(failures, AUTH_WINDOW_SECONDS);
    // Refused now, even with the right password, until the window ends.
    expect((await post('/api/login', { email, password })).status).toBe(429);
  });
});
