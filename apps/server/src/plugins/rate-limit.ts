import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { ERROR_MESSAGES } from '@inkwell/contract';

export interface RouteRateLimit {
  max: number;
  timeWindow: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Route config for login, register, password reset and contact: AUTH_RATE_LIMIT per 15 min. */
    authRateLimit: RouteRateLimit;
  }
}

/**
 * Per-client-address limits, opted into per route with `config: { rateLimit: … }`. With REDIS_URL
 * the counters live in Redis, so several app servers share them.
 */
async function rateLimitPlugin(app: FastifyInstance) {
  const redis = app.config.REDIS_URL
    ? new Redis(app.config.REDIS_URL, { connectTimeout: 2000, maxRetriesPerRequest: 1 })
    : undefined;
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'inkwell-rl:' } : {}),
    errorResponseBuilder: (_req, ctx) => {
      const err = new Error(ERROR_MESSAGES.rateLimited) as Error & { statusCode: number };
      err.statusCode = ctx.statusCode;
      return err;
    },
  });
  app.decorate('authRateLimit', { max: app.config.AUTH_RATE_LIMIT, timeWindow: 15 * 60 * 1000 });
}

export default fp(rateLimitPlugin, { name: 'rate-limit' });
