import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { latestAlertResponseSchema } from '@inkwell/contract';
import { latestAlert } from './alerts.service';

export async function alertsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/alerts/latest',
    { schema: { tags: ['site'], response: { 200: latestAlertResponseSchema } } },
    async () => latestAlert(app.db),
  );
}
