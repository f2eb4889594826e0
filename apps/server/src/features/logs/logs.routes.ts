import type { FastifyInstance } from 'fastify';
import { LOG_LEVELS } from '@inkwell/contract';

const MAX_MESSAGE = 4000;

/**
 * Client log lines into the server log. Lenient by design: whatever the browser sends is coerced,
 * capped and logged, so logging never fails the client; only the rate limit answers 429.
 */
export async function logsRoutes(app: FastifyInstance) {
  app.post(
    '/api/logs',
    {
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      bodyLimit: 16 * 1024,
      schema: { tags: ['site'], hide: false },
    },
    async (request, reply) => {
      const body = (typeof request.body === 'object' && request.body ? request.body : {}) as Record<
        string,
        unknown
      >;
      const raw =
        typeof body.message === 'string' ? body.message : JSON.stringify(body.message ?? '');
      const message = raw.slice(0, MAX_MESSAGE);
      const upper = String(body.level ?? 'INFO').toUpperCase();
      const level = (LOG_LEVELS as readonly string[]).includes(upper) ? upper : 'INFO';
      const log = request.log.child({
        source: 'client',
        clientLevel: level,
        truncated: raw.length > MAX_MESSAGE,
      });
      if (level === 'ERROR') log.error(message);
      else if (level === 'WARN') log.warn(message);
      else if (level === 'DEBUG') log.debug(message);
      else log.info(message);
      return reply.code(204).send();
    },
  );
}
