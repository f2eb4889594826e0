import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_NAMESPACE } from '../src/plugins/rate-limit';
import { startPrivateRedis, type PrivateRedis } from './private-services';
import { startTestServer, type TestServer } from './test-app';

/**
 * Redis restarted under a running server (issue 36): a private redis-server (never the shared
 * one) is killed and started again, empty. The rate limits it holds degrade to counting in the
 * server while it is down (every request answered, none 5xx, the limit still holding) and are
 * shared through Redis again once it is back. (Redis holds only rate-limit counters: the job bus
 * is each process's own and the model's shared slots are rows of PostgreSQL.)
 */
const LIMIT = 3;

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

describe.skipIf(!hasRedisServer)('rate limits through a Redis restart', () => {
  let redis: PrivateRedis;
  let server: TestServer;
  let client: Redis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    client.on('error', () => {}); // it is down on purpose for a while
    server = await startTestServer({
      env: { REDIS_URL: redis.url, AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: 'true' },
    });
  });
  afterAll(async () => {
    await server?.close();
    client?.disconnect();
    await redis?.close();
  });

  /** A registration refused as invalid (400) after it is counted: nothing is stored. */
  const attempt = (address: string) =>
    server.request('/api/register', {
      method: 'POST',
      headers: { 'x-forwarded-for': address },
      json: {},
      signal: AbortSignal.timeout(10_000),
    });
  /** The statuses of LIMIT + 1 attempts from one address. */
  const burst = async (address: string) => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await attempt(address)).status);
    return statuses;
  };
  const counted = async (address: string) =>
    (await client.keys(`${REDIS_NAMESPACE}*${address}`)).length > 0;
  const refusedAfterLimit = [...Array<number>(LIMIT).fill(400), 429];

  it('counts in the server while Redis is down, and in Redis again once it is back', async () => {
    await client.connect();
    expect(await burst('203.0.113.1')).toEqual(refusedAfterLimit);
    expect(await counted('203.0.113.1')).toBe(true);

    await redis.stop();
    // Answered at once, never 5xx, and still limited (by this server alone).
    expect(await burst('203.0.113.2')).toEqual(refusedAfterLimit);
    expect((await server.request('/api/health')).status).toBe(200);

    await redis.start();
    // Back on Redis (ioredis reconnects by itself): a new address's count appears there.
    let n = 0;
    await expect
      .poll(
        async () => {
          const address = `203.0.113.${100 + n++}`;
          expect((await attempt(address)).status).toBe(400);
          return counted(address);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    expect(await burst('203.0.113.3')).toEqual(refusedAfterLimit);
    expect(await counted('203.0.113.3')).toBe(true);
  }, 60_000);
});
