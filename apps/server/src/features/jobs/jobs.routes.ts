import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponseSchema,
  jobListQuerySchema,
  jobListSchema,
  jobSchema,
} from '@inkwell/contract';
import { requireUser } from '../../plugins/auth';
import { streamJob } from './job-stream';
import { jobListCursor, readJobListCursor, toJobSummary, toJobView } from './job-view';

/** GET /api/jobs, GET /api/jobs/:id, GET /api/jobs/:id/events, DELETE /api/jobs/:id (contract jobs.ts). */
export async function jobsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['jobs'];
  const params = z.object({ id: z.string().uuid('Job not found') });
  /** The asker, when a token came with the request (anonymous analyses are reached by id alone). */
  const asker = { onRequest: app.authenticateOptional };

  app.get(
    '/api/jobs',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security: [{ bearer: [] }],
        querystring: jobListQuerySchema,
        description:
          "A page of the user's jobs, newest first, without results (GET /api/jobs/:id has one).",
        response: { 200: jobListSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : readJobListCursor(cursor);
      const page = await app.jobs.list(requireUser(request).id, limit, after);
      const last = page.rows.at(-1);
      return {
        jobs: page.rows.map(toJobSummary),
        next_cursor: page.more && last ? jobListCursor(last) : null,
      };
    },
  );

  app.get(
    '/api/jobs/:id',
    {
      ...asker,
      schema: {
        tags,
        params,
        response: { 200: jobSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      toJobView(await app.jobs.findFor(request.authUser?.id ?? null, request.params.id)),
  );

  app.get(
    '/api/jobs/:id/events',
    {
      ...asker,
      schema: {
        tags,
        params,
        description: 'Server-sent events: `job`, `progress`…, then `done` or `error`.',
        response: { 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const row = await app.jobs.findFor(request.authUser?.id ?? null, request.params.id);
      return streamJob(app.jobs, reply, row.id);
    },
  );

  app.delete(
    '/api/jobs/:id',
    {
      ...asker,
      schema: {
        tags,
        params,
        response: { 200: jobSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const row = await app.jobs.findFor(request.authUser?.id ?? null, request.params.id);
      return toJobView(await app.jobs.cancel(row));
    },
  );
}
