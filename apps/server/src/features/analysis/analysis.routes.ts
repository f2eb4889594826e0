import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessibilityAnalysisResponseSchema,
  analysisRequestSchema,
  errorResponseSchema,
  seoAnalysisResponseSchema,
} from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import { analyseAccessibility, analyseSeo, type AnalysisDeps } from './analysis.service';

/**
 * POST /api/accessibility-analysis and POST /api/seo-analysis (spec §7): form field `url`
 * (urlencoded, multipart or JSON), no token. Each analysis fetches a third-party page and runs a
 * DOM, so they are rate limited per client address.
 */
export const ANALYSIS_RATE_LIMIT = { max: 20, timeWindow: 60_000 };

const errors = {
  400: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
  504: errorResponseSchema,
};

export async function analysisRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (signal: AbortSignal): AnalysisDeps => ({
    ai: app.ai,
    allowHosts: app.config.FETCH_ALLOW_HOSTS,
    chromiumPath: app.config.CHROMIUM_PATH,
    signal,
  });

  app.post(
    '/api/accessibility-analysis',
    {
      config: { rateLimit: ANALYSIS_RATE_LIMIT },
      schema: {
        tags: ['analysis'],
        response: { 200: accessibilityAnalysisResponseSchema, ...errors },
      },
    },
    async (request, reply) => ({
      accessibility_analysis: await analyseAccessibility(
        deps(abortOnDisconnect(reply)),
        await readUrl(request),
      ),
    }),
  );

  app.post(
    '/api/seo-analysis',
    {
      config: { rateLimit: ANALYSIS_RATE_LIMIT },
      schema: { tags: ['analysis'], response: { 200: seoAnalysisResponseSchema, ...errors } },
    },
    async (request, reply) => ({
      seo_analysis: await analyseSeo(deps(abortOnDisconnect(reply)), await readUrl(request)),
    }),
  );
}

/** The `url` field from a urlencoded or JSON body (already objects) or a multipart form. */
async function readUrl(request: FastifyRequest): Promise<string> {
  let fields: unknown = request.body;
  if (request.isMultipart()) {
    const collected: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'field' && typeof part.value === 'string')
        collected[part.fieldname] = part.value;
      else if (part.type === 'file') await part.toBuffer(); // drain: files are not expected here
    }
    fields = collected;
  }
  const parsed = analysisRequestSchema.safeParse(fields ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(
      issue?.code === 'invalid_type' ? 'url: a web address is required' : `url: ${issue?.message}`,
    );
  }
  return parsed.data.url;
}

/** Stops fetching and generating when the client goes away. */
function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
