import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCounters, signInLimit, type SignInAttempt } from './sign-in-limit';

const WINDOW_MS = 15 * 60 * 1000;
const allowedOf = (attempts: SignInAttempt[]) => attempts.filter((a) => a.allowed).length;

describe('sign-in limit in this process', () => {
  it('lets no more than `max` of a burst through, and a refund gives one back', async () => {
    const limit = signInLimit(null, { max: 3, windowMs: WINDOW_MS, prefix: 't:' });
    const burst = await Promise.all(Array.from({ length: 30 }, () => limit.attempt('1.2.3.4')));
    expect(allowedOf(burst)).toBe(3);
    const refused = burst.find((a) => !a.allowed);
    expect(refused).toEqual({ allowed: false, retryAfter: WINDOW_MS / 1000 });

    const first = burst.find((a) => a.allowed);
    if (!first?.allowed) throw new Error('unreachable');
    await first.refund();
    await first.refund(); // a second refund of one attempt gives back nothing more
    expect(allowedOf(await Promise.all([1, 2].map(() => limit.attempt('1.2.3.4'))))).toBe(1);
    // Another address has a budget of its own.
    expect((await limit.attempt('5.6.7.8')).allowed).toBe(true);
  });

  it('starts a new window when the old one ends', () => {
    const counters = localCounters({ max: 1, windowMs: 1000, maxKeys: 10 });
    expect(counters.attempt('a', 0).allowed).toBe(true);
    expect(counters.attempt('a', 999)).toEqual({ allowed: false, retryAfter: 1 });
    expect(counters.attempt('a', 1000).allowed).toBe(true);
  });

  it('keeps at most maxKeys addresses: expired windows go first, then the oldest', () => {
    const counters = localCounters({ max: 1, windowMs: 1000, maxKeys: 3 });
    for (const [i, key] of ['a', 'b', 'c'].entries()) counters.attempt(key, i);
    // At 1000 a's window is over: it makes room, b and c stay counted.
    counters.attempt('d', 1000);
    expect(counters.size).toBe(3);
    expect(counters.attempt('b', 1000).allowed).toBe(false);
    expect(counters.attempt('c', 1000).allowed).toBe(false);
    // Full with none expired: the window closest to its end (b's) makes room.
    counters.attempt('e', 1000);
    expect(counters.size).toBe(3);
    expect(counters.attempt('c', 1000).allowed).toBe(false);
    expect(counters.attempt('b', 1000).allowed).toBe(true);
    for (let i = 0; i < 1000; i++) counters.attempt(`x${i}`, 1000);
    expect(counters.size).toBe(3);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('sign-in limit in Redis', () => {
  let redis: Redis;
  // Keys of this run only: the only ones this test deletes.
  const prefix = `inkwell-test-signin-${randomBytes(6).toString('hex')}:`;
  beforeAll(async () => {
    redis = new Redis(process.env.TEST_REDIS_URL!);
    await redis.ping(); // answered: the connection is ready, the limit counts in Redis
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const limitOf = (max: number) => signInLimit(redis, { max, windowMs: WINDOW_MS, prefix });

  it('counts a burst in one step each: `max` through, every key with its expiry', async () => {
    const limit = limitOf(3);
    const burst = await Promise.all(Array.from({ length: 30 }, () => limit.attempt('burst')));
    expect(allowedOf(burst)).toBe(3);
    expect(await redis.get(`${prefix}burst`)).toBe('3');
    const ttl = await redis.pttl(`${prefix}burst`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
    const refused = burst.find((a) => !a.allowed);
    expect(refused).toEqual({ allowed: false, retryAfter: WINDOW_MS / 1000 });
  });

  it('refunds a successful attempt, and a refund never makes a key without expiry', async () => {
    const limit = limitOf(3);
    const attempt = await limit.attempt('refund');
    if (!attempt.allowed) throw new Error('refused');
    expect(await redis.get(`${prefix}refund`)).toBe('1');
    await attempt.refund();
    expect(await redis.get(`${prefix}refund`)).toBe('0');
    expect(await redis.pttl(`${prefix}refund`)).toBeGreaterThan(0);
    // The window ended meanwhile: nothing is left to give back, and nothing is created.
    await redis.del(`${prefix}refund`);
    await attempt.refund();
    expect(await redis.exists(`${prefix}refund`)).toBe(0);
  });

  it('gives a key that has no expiry (left by an older version) its window', async () => {
    await redis.set(`${prefix}stuck`, '50');
    const limit = limitOf(3);
    expect(await limit.attempt('stuck')).toEqual({ allowed: false, retryAfter: WINDOW_MS / 1000 });
    const ttl = await redis.pttl(`${prefix}stuck`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
  });
});
