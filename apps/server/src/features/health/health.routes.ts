import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { healthResponseSchema, type HealthResponse } from '@inkwell/contract';

/** How long readiness waits for the file store before calling it unavailable. */
const STORAGE_CHECK_MS = 3000;

/**
 * The state of the database and the model, as both health routes report it: these routes are
 * public, so they say ok or the model's state, never why (the reason names paths, settings and
 * internal addresses: it is in the log and on the Admin page).
 */
async function checkHealth(app: FastifyInstance): Promise<HealthResponse> {
  const database = await sql`select 1`.execute(app.db).then(
    () => 'ok' as const,
    () => 'error' as const,
  );
  const model = app.ai.status();
  return {
    status: database === 'ok' && model.available ? 'ok' : 'degraded',
    database,
    model: model.available ? 'ok' : model.state === 'ready' ? 'unavailable' : model.state,
  };
}

/**
 * `ok`, or `unavailable` when files cannot be stored (a missing bucket answers every upload with
 * a 500); the reason goes to the log.
 */
async function checkStorage(app: FastifyInstance): Promise<'ok' | 'unavailable'> {
  const signal = AbortSignal.timeout(STORAGE_CHECK_MS);
  try {
    await app.storage.check(signal);
    return 'ok';
  } catch (err) {
    const reason = signal.aborted
      ? `no answer within ${STORAGE_CHECK_MS / 1000} s`
      : (err as Error).message;
    app.log.warn(`readiness: the file store is unavailable: ${reason}`);
    return 'unavailable';
  }
}

export async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const schema = {
    tags: ['site'],
    response: { 200: healthResponseSchema, 503: healthResponseSchema },
  };

  /** Liveness: 200 while the database answers, even with no model (non-AI features still work). */
  app.get('/api/health', { schema }, async (_request, reply) => {
    const health = await checkHealth(app);
    return reply.code(health.database === 'ok' ? 200 : 503).send(health);
  });

  /**
   * Readiness for a load balancer: 200 only when the database, the model and the file store can
   * all serve. (Liveness leaves the store out: an outage of a shared service is no reason to
   * restart every app server.)
   */
  app.get('/api/ready', { schema }, async (_request, reply) => {
    const [health, storage] = await Promise.all([checkHealth(app), checkStorage(app)]);
    const ok = health.status === 'ok' && storage === 'ok';
    return reply.code(ok ? 200 : 503).send({ ...health, status: ok ? 'ok' : 'degraded', storage });
  });
}
