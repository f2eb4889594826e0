import { createRequire } from 'node:module';
import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { HttpError } from '../lib/http-error';
import { rateLimitedMessage } from '../lib/wait-text';
import { signInLimit, type SignInLimit } from './sign-in-limit';

export interface RouteRateLimit {
  max: number;
  timeWindow: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Route config for login, register, password reset and contact: AUTH_RATE_LIMIT per 15 min. */
    authRateLimit: RouteRateLimit;
    /**
     * Sign-in attempts per address: AUTH_RATE_LIMIT per 15 min, counted before the password is
     * checked and given back when it was right (successes count none).
     */
    signInLimit: SignInLimit;
  }
}

/** Prefix of every rate-limit key in Redis. */
export const REDIS_NAMESPACE = 'inkwell-rl:';

// The plugin's own stores (its index exports neither): counters in Redis, and in this process.
type Incr = (
  key: string,
  cb: (err: Error | null, res?: { current: number; ttl: number }) => void,
  timeWindow: number,
  max: number,
) => void;
type Store = Omit<FastifyRateLimitStore, 'incr' | 'child'> & {
  incr: Incr;
  child(routeOptions: unknown): Store;
};
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => Store;

/**
 * Counters in Redis, shared by every app server. While Redis is unreachable each server counts on
 * its own, so the limits still hold (per server) and requests neither fail nor wait on Redis.
 */
function redisWithLocalFallback(redis: Redis, onError: (err: Error) => void) {
  const pair = (shared: Store, local: Store): Store => ({
    incr(key, cb, timeWindow, max) {
      if (redis.status !== 'ready') return local.incr(key, cb, timeWindow, max);
      shared.incr(
        key,
        (err, res) => {
          if (!err) return cb(null, res);
          onError(err);
          local.incr(key, cb, timeWindow, max);
        },
        timeWindow,
        max,
      );
    },
    child: (routeOptions) => pair(shared.child(routeOptions), local.child(routeOptions)),
  });
  return function SharedStore() {
    return pair(new RedisStore(false, false, redis, REDIS_NAMESPACE), new LocalStore(false, false));
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * Per-client-address limits, opted into per route with `config: { rateLimit: … }`. With REDIS_URL
 * the counters live in Redis, so several app servers share them.
 */
async function rateLimitPlugin(app: FastifyInstance) {
  let store: FastifyRateLimitStoreCtor | undefined;
  let sharedRedis: Redis | null = null;
  let onRedisError: ((err: Error) => void) | undefined;
  if (app.config.REDIS_URL) {
    const redis = new Redis(app.config.REDIS_URL, {
      connectTimeout: 2000,
      maxRetriesPerRequest: 1,
    });
    app.addHook('onClose', async () => void redis.disconnect());
    // One warning per outage (ioredis reports every reconnect attempt), one note on recovery.
    let down = false;
    const onError = (err: Error) => {
      if (down) return;
      down = true;
      app.log.warn(
        { err },
        'Redis (REDIS_URL) unreachable: rate-limit counters are kept per server until it is back',
      );
    };
    redis.on('error', onError);
    redis.on('ready', () => {
      if (down) app.log.info('Redis (REDIS_URL) reachable again: rate-limit counters are shared');
      down = false;
    });
    // Start counting in Redis from the first request when it is up; never wait longer than a
    // connection attempt (connectTimeout) when it is not.
    await new Promise<void>((resolve) => {
      const done = () => {
        redis.off('ready', done).off('error', done);
        resolve();
      };
      redis.once('ready', done).once('error', done);
    });
    store = redisWithLocalFallback(redis, onError);
    sharedRedis = redis;
    onRedisError = onError;
  }
  await app.register(rateLimit, {
    global: false,
    ...(store ? { store } : {}),
    // The plugin has set Retry-After already; the text says the same wait in words.
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(ctx.statusCode, rateLimitedMessage(ctx.ttl / 1000)),
  });
  const window = { max: app.config.AUTH_RATE_LIMIT, timeWindow: 15 * 60 * 1000 };
  app.decorate('authRateLimit', window);
  app.decorate(
    'signInLimit',
    signInLimit(sharedRedis, {
      max: window.max,
      windowMs: window.timeWindow,
      // The same key the route limit used, so existing tooling that clears an address still works.
      prefix: `${REDIS_NAMESPACE}POST/api/login-`,
      onRedisError: (err) => onRedisError?.(err instanceof Error ? err : new Error(String(err))),
    }),
  );
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
