import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_NAMESPACE } from '../src/plugins/rate-limit';
import { AUTH_WINDOW_SECONDS, attemptsPastLimit, expectRateLimited } from './rate-limit';
import { startTestServer, type TestServer } from './test-app';

const LIMIT = 3;
const failedLogin = (server: TestServer, clientAddress?: string) =>
  server.request('/api/login', {
    method: 'POST',
    headers: clientAddress ? { 'x-forwarded-for': clientAddress } : {},
    json: { email: 'nobody@example.com', password: 'wrong password' },
  });

describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits shared by two app servers', () => {
  const redisUrl = process.env.TEST_REDIS_URL!;
  // A client address of this run only (from the documentation prefix 2001:db8::/32; it travels in
  // a header and is never contacted): its counters are keys no parallel run shares, and the only
  // keys this test deletes.
  const client = `2001:db8:${randomBytes(6).toString('hex').match(/.{4}/g)!.join(':')}::1`;
  const loginKey = `${REDIS_NAMESPACE}POST/api/login-${client}`;
  const burstClient = `${client}2`;
  const burstKey = `${REDIS_NAMESPACE}POST/api/login-${burstClient}`;
  let redis: Redis;
  let servers: TestServer[];

  beforeAll(async () => {
    redis = new Redis(redisUrl);
    servers = await Promise.all(
      [0, 1].map(() =>
        startTestServer({
          env: { REDIS_URL: redisUrl, AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' },
        }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all((servers ?? []).map((s) => s.close()));
    if (redis) {
      await redis.del(loginKey, burstKey);
      redis.disconnect();
    }
  });

  it('refuses the attempt after AUTH_RATE_LIMIT, counted across both servers', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    // Alternating servers: neither sees more than two attempts of its own before the 429.
    const attempt = (i: number) => failedLogin(i % 2 === 0 ? a : b, client);
    await expectRateLimited(await attemptsPastLimit(LIMIT, 401, attempt), AUTH_WINDOW_SECONDS);
    await expectRateLimited(await attempt(LIMIT + 1), AUTH_WINDOW_SECONDS);

    // Failed sign-ins only: the refused attempts were never checked, so they are not counted.
    expect(await redis.get(loginKey)).toBe(String(LIMIT));
    const ttl = await redis.pttl(loginKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(AUTH_WINDOW_SECONDS * 1000);
    // Another client address has a budget of its own.
    expect((await failedLogin(b, `${client}1`)).status).toBe(401);
    await redis.del(`${REDIS_NAMESPACE}POST/api/login-${client}1`);
  });
  it('judges at most AUTH_RATE_LIMIT of a burst sent to both servers at once', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => failedLogin(i % 2 === 0 ? a : b, burstClient)),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LIMIT);
    await expectRateLimited(
      burst.find((r) => r.status === 429)!,
      AUTH_WINDOW_SECONDS,
    );
    expect(await redis.get(burstKey)).toBe(String(LIMIT));
    expect(await redis.pttl(burstKey)).toBeGreaterThan(0);
  });
});

describe('rate limits while Redis is unreachable', () => {
  let server: TestServer;
  const consoleError = vi.spyOn(console, 'error');

  beforeAll(async () => {
    // A loopback port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    server = await startTestServer({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, AUTH_RATE_LIMIT: String(LIMIT) },
    });
  });
  afterAll(() => server?.close());
  afterEach(() => consoleError.mockClear());

  it('starts, answers as usual and still limits each server on its own', async () => {
    const limited = await attemptsPastLimit(LIMIT, 401, () => failedLogin(server));
    await expectRateLimited(limited, AUTH_WINDOW_SECONDS);
    expect((await server.request('/api/health')).status).toBe(200);
    const log = await server.request('/api/logs', { method: 'POST', json: { message: 'hi' } });
    expect(log.status).toBe(204);
    // The outage goes to the server log, not as ioredis's "Unhandled error event" on stderr.
    expect(consoleError.mock.calls.flat().join(' ')).not.toContain('[ioredis]');
  });
});
