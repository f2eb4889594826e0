import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { healthResponseSchema, type HealthResponse } from '@inkwell/contract';

/** The state of the database and the model, as both health routes report it. */
async function checkHealth(app: FastifyInstance): Promise<HealthResponse> {
  const database = await sql`select 1`.execute(app.db).then(
    () => 'ok' as const,
    () => 'error' as const,
  );
  const model = app.ai.status();
  return {
    status: database === 'ok' && model.available ? 'ok' : 'degraded',
    database,
    model: model.available ? model.name : `unavailable: ${model.reason ?? 'not configured'}`,
  };
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

  /** Readiness for a load balancer: 200 only when both the database and the model can serve. */
  app.get('/api/ready', { schema }, async (_request, reply) => {
    const health = await checkHealth(app);
    return reply.code(health.status === 'ok' ? 200 : 503).send(health);
  });
}
