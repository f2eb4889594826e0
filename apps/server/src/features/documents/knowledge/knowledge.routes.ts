import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ERROR_MESSAGES,
  askFilesRequestSchema,
  askFilesResponseSchema,
  type AskFilesResponse,
  errorResponseSchema,
} from '@inkwell/contract';
import { HttpError, badRequest, tooManyRequests } from '../../../lib/http-error';
import { formParts } from '../../../lib/multipart-form';
import { utcDay } from '../../../lib/time';
import { requireUser } from '../../../plugins/auth';
import { requireModel } from '../model-calls';
import { answerJob } from '../../jobs';
import type { AskFilesJobInput } from './ask-files.job';
import { giveAskPromptBack, takeAskPrompt } from './ask-files-prompt';
import { checkAskable } from './ask-files.service';

/** The fields of a JSON body, or of a multipart / url-encoded form (`file_ids` a comma list). */
async function readFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    const body = request.body;
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body))
      throw badRequest('The request must be a JSON object or a form');
    return body as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for await (const part of formParts(request)) {
    if (part.type === 'file') part.file.resume();
    else if (!(part.fieldname in fields)) fields[part.fieldname] = part.value;
  }
  return fields;
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((midnight - now.getTime()) / 1000);
}

export async function knowledgeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const error = errorResponseSchema;

  app.post(
    '/api/ask_files',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['knowledge'],
        security: [{ bearer: [] }],
        consumes: ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'],
        description:
          'JSON `{ text, file_ids? }` (or form fields, `file_ids` a comma list) → `{ response, ' +
          'sources }`: a question across the files (default all), answered from the search index. ' +
          'With `accept: text/event-stream` it streams as a job of kind `ask_files`.',
        response: {
          200: askFilesResponseSchema,
          ...{ 400: error, 401: error, 404: error, 409: error, 429: error, 503: error },
        },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const parsed = askFilesRequestSchema.safeParse(await readFields(request));
      if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request');
      const { text, file_ids: fileIds } = parsed.data;
      await checkAskable(app.db, user.id, fileIds);
      requireModel(app.ai);
      // One prompt of the day's allowance, as a chat message is: given back if the question gets
      // no answer (the job's end, ask-files.job.ts), or is refused here.
      const prompt = { userId: user.id, day: utcDay(), limit: app.config.PROMPT_LIMIT };
      if ((await takeAskPrompt(app.db, app.dialect, prompt)) === null)
        throw tooManyRequests(ERROR_MESSAGES.rateLimited, secondsToUtcMidnight());
      const jobId = await app.jobs
        .create({
          kind: 'ask_files',
          userId: user.id,
          sessionId: user.sessionId,
          about: { question: text },
          input: { text, fileIds, day: prompt.day } satisfies AskFilesJobInput,
        })
        .catch(async (err: unknown) => {
          // Refused (JOBS_QUEUED_PER_USER): nothing was queued. Another failure may have queued
          // the job all the same (its queue message is sent again later): its prompt stays.
          if (err instanceof HttpError && err.statusCode === 429)
            await giveAskPromptBack(app.db, app.dialect, prompt).catch((e: unknown) =>
              request.log.warn({ err: e }, 'ask_files: a refused question kept its prompt'),
            );
          throw err;
        });
      // The result, or (streamed) the reply already sent: answerJob knows which.
      return (await answerJob(app.jobs, request, reply, jobId)) as AskFilesResponse;
    },
  );
}
