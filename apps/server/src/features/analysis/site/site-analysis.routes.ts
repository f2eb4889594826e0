import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  siteAnalysisRequestSchema,
  siteAnalysisResponseSchema,
  type SiteAnalysisResponse,
} from '@inkwell/contract';
import { requireUser } from '../../../plugins/auth';
import { answerJob } from '../../jobs';
import { ANALYSIS_RATE_LIMIT } from '../analysis.routes';
import type { SiteJobInput } from './site-analysis.job';
import { parseTarget } from '../fetch/safe-fetch';
import { readAnalysisRequest } from '../read-form-fields';

/**
 * POST /api/site-analysis (issue 22): `url` and `max_pages` (urlencoded, multipart or JSON),
 * auth. Runs as a job of kind `site`: the answer, or its progress as server-sent events with
 * `Accept: text/event-stream` (jobs/job-stream.ts).
 */
export async function siteAnalysisRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/site-analysis',
    {
      onRequest: app.authenticate,
      config: { rateLimit: ANALYSIS_RATE_LIMIT },
      schema: {
        tags: ['analysis'],
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
        response: {
          200: siteAnalysisResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
          502: errorResponseSchema,
          504: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const input = await readAnalysisRequest(request, siteAnalysisRequestSchema);
      // An address no page can come from (javascript:, a bare word) is refused here, not by a
      // job that fails on it.
      parseTarget(input.url);
      const jobId = await app.jobs.create({
        kind: 'site',
        userId: user.id,
        sessionId: user.sessionId,
        about: { url: input.url },
        input: { url: input.url, max_pages: input.max_pages } satisfies SiteJobInput,
      });
      // The job's result is the handler's SiteAnalysisResponse (or the SSE reply itself).
      return answerJob(app.jobs, request, reply, jobId) as Promise<SiteAnalysisResponse>;
    },
  );
}
