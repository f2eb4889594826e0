import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { aiStatusSchema, errorResponseSchema } from '@inkwell/contract';
import { toAiStatus } from './ai-status';

/** GET /api/ai/status: the model's state for the web app's banner (contract ai.ts). */
export async function aiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/ai/status',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['ai'],
        security: [{ bearer: [] }],
        description:
          'The language model: downloading (with progress), loading, ready or unavailable (with the reason), and the calls waiting for it.',
        response: { 200: aiStatusSchema, 401: errorResponseSchema },
      },
    },
    async () => toAiStatus(app.ai.status()),
  );
}
