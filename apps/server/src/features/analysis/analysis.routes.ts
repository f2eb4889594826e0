import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessibilityAnalysisResponseSchema,
  analysisRequestSchema,
  errorResponseSchema,
  seoAnalysisResponseSchema,
} from '@inkwell/contract';
import { answerJob } from '../jobs';
import type { AnalysisJobInput } from './analysis.job';
import { readAnalysisRequest } from './read-form-fields';

/**
 * POST /api/accessibility-analysis and POST /api/seo-analysis (spec §7): form field `url`
 * (urlencoded, multipart or JSON), no token needed. Each analysis runs as a job (analysis.job.ts):
 * the answer is its result, or with `Accept: text/event-stream` its progress then the result; a
 * client that goes away leaves it running. Each analysis fetches a third-party page and runs a
 * DOM, so they are rate limited per client address.
 */
export const ANALYSIS_RATE_LIMIT = { max: 20, timeWindow: 60_000 };

const errors = {
  400: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
  504: errorResponseSchema,
};

export async function analysisRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  /** A signed-in user's analysis is theirs; an anonymous one is reached by its random id alone. */
  const asker = { onRequest: app.authenticateOptional };

  for (const kind of ['accessibility', 'seo'] as const) {
    app.post(
      kind === 'accessibility' ? '/api/accessibility-analysis' : '/api/seo-analysis',
      {
        ...asker,
        config: { rateLimit: ANALYSIS_RATE_LIMIT },
        schema: {
          tags: ['analysis'],
          response: {
            200:
              kind === 'accessibility'
                ? accessibilityAnalysisResponseSchema
                : seoAnalysisResponseSchema,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { url } = await readAnalysisRequest(request, analysisRequestSchema);
        const jobId = await app.jobs.create({
          kind,
          userId: request.authUser?.id ?? null,
          sessionId: request.authUser?.sessionId ?? null,
          address: request.ip,
          about: { url },
          input: { url } satisfies AnalysisJobInput,
        });
        // The job's stored result (or its stream): the response schema still checks its shape.
        return (await answerJob(app.jobs, request, reply, jobId)) as never;
      },
    );
  }
}
