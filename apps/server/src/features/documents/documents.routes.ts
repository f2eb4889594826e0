import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  askQuestionSchema,
  type JobKind,
  askQuestionsResponseSchema,
  downloadResponseRequestSchema,
  errorResponseSchema,
  proofreadResponseSchema,
  sentimentRequestSchema,
  sentimentResponseSchema,
  summarizeRequestSchema,
  summarizeResponseSchema,
  translateResponseSchema,
  translateStoredFileRequestSchema,
  translateTargetSchema,
  translateTextRequestSchema,
} from '@inkwell/contract';
import { abortOnDisconnect } from '../../lib/abort-on-disconnect';
import { badRequest } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';
import { contentDisposition, type FilesDeps } from '../files';
import { answerJob, type NewJob } from '../jobs';
import { documentSource, readDocumentRequest, type DocumentRequest } from './document-input';
import { storedSource, type DocumentJobInput } from './documents.job';
import { exportText } from './export.service';
import { requireModel } from './model-calls';
import { receivingLimit } from './receiving';

const tags = ['documents'];
const security = [{ bearer: [] }];
const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  413: errorResponseSchema,
  415: errorResponseSchema,
  502: errorResponseSchema,
  503: errorResponseSchema,
  504: errorResponseSchema,
};
const form = (description: string, ok: z.ZodType) => ({
  tags,
  security,
  consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
  description,
  response: { 200: ok, ...errors },
});

/** Parses fields with a contract schema; the first problem becomes the 400 message. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(r.error.issues[0]?.message ?? 'Invalid request');
  return r.data;
}

export async function documentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const files: FilesDeps = { db: app.db, dialect: app.dialect, storage: app.storage };
  const auth = { onRequest: app.authenticate };
  // The actions that receive a document: a few at a time per person (receiving.ts).
  const receiving = receivingLimit();
  const receivingAuth = { onRequest: [app.authenticate, receiving.admit] };

  /** Queues a job for a received document: the request counts no more as receiving one. */
  const createJob = async (request: FastifyRequest, job: NewJob) => {
    try {
      return await app.jobs.create(job);
    } finally {
      receiving.received(request);
    }
  };

  /**
   * Checks what can fail at once (the document named and owned, the model usable), then runs the
   * action as a job and answers its result, or streams its progress (jobs/job-stream.ts).
   */
  const runAsJob = async (
    request: FastifyRequest,
    reply: FastifyReply,
    input: DocumentRequest,
    job: { kind: JobKind; needsModel: boolean; fields?: DocumentJobInput['fields'] },
  ) => {
    const user = requireUser(request);
    const source = await documentSource(files, user.id, input);
    if (job.needsModel) requireModel(app.ai);
    const fields = job.fields ?? {};
    const jobId = await createJob(request, {
      kind: job.kind,
      userId: user.id,
      sessionId: user.sessionId,
      about: {
        file_name: source.kind === 'upload' ? source.file.name : source.name,
        ...(fields.target_language ? { target_language: fields.target_language } : {}),
        ...(job.kind === 'ask' && fields.text ? { question: fields.text } : {}),
      },
      input: { source: storedSource(source), fields } satisfies DocumentJobInput,
      upload: source.kind === 'upload' ? source.file.bytes : undefined,
    });
    return answerJob(app.jobs, request, reply, jobId);
  };

  app.post(
    '/api/summarize',
    {
      ...receivingAuth,
      schema: form(
        '`file` or `file_id`, optional `mode` → `{ summary }` (map-reduce). `mode=bounded` ' +
          '(default): a document longer than SUMMARY_MAX_TOKENS is first cut down to the most ' +
          'central sentences of each page, slide, sheet or headed part (TextRank), so the model ' +
          'reads at most that many tokens of it; `mode=full`: the model reads every word.',
        summarizeResponseSchema,
      ),
    },
    async (request, reply) => {
      const input = await readDocumentRequest(request);
      const { mode } = parse(summarizeRequestSchema, input.fields);
      return runAsJob(request, reply, input, {
        kind: 'summarize',
        needsModel: true,
        fields: { mode },
      });
    },
  );

  app.post(
    '/api/askQuestions',
    {
      ...receivingAuth,
      schema: form(
        '`file` or `file_id`, and the question `text` → `{ response }`.',
        askQuestionsResponseSchema,
      ),
    },
    async (request, reply) => {
      const input = await readDocumentRequest(request);
      const text = parse(askQuestionSchema, input.fields.text);
      return runAsJob(request, reply, input, { kind: 'ask', needsModel: true, fields: { text } });
    },
  );

  app.post(
    '/api/translate',
    {
      ...receivingAuth,
      schema: form(
        '`text`, `target_language`, optional `source_language`; or `file` + `target_language` → `{ translation }`.',
        translateResponseSchema,
      ),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const input = await readDocumentRequest(request);
      if (input.file) {
        const { target_language } = parse(translateTargetSchema, input.fields);
        return runAsJob(request, reply, input, {
          kind: 'translate',
          needsModel: true,
          fields: { target_language },
        });
      }
      // Typed text runs as a job too, so a signed-in person finds its translation again after a
      // reload and on another device (GET /api/jobs); its calls still go before document work.
      const t = parse(translateTextRequestSchema, input.fields);
      requireModel(app.ai);
      const jobId = await createJob(request, {
        kind: 'translate',
        userId: user.id,
        sessionId: user.sessionId,
        about: { target_language: t.target_language, text: t.text.slice(0, 200) },
        input: {
          source: { kind: 'typed' },
          fields: {
            text: t.text,
            target_language: t.target_language,
            ...(t.source_language ? { source_language: t.source_language } : {}),
          },
        } satisfies DocumentJobInput,
      });
      return answerJob(app.jobs, request, reply, jobId);
    },
  );

  app.post(
    '/api/translate_stored_file',
    {
      ...receivingAuth,
      schema: form('`file_id`, `target_language` → `{ translation }`.', translateResponseSchema),
    },
    async (request, reply) => {
      const input = await readDocumentRequest(request);
      const { target_language } = parse(translateStoredFileRequestSchema, input.fields);
      // Only a stored file: an uploaded `file` part is not what this endpoint translates.
      return runAsJob(
        request,
        reply,
        { fields: input.fields },
        { kind: 'translate', needsModel: true, fields: { target_language } },
      );
    },
  );

  app.post(
    '/api/proofread',
    {
      ...receivingAuth,
      schema: form(
        '`file` or `file_id`, optional instruction `text` → issues from Harper, corrected text and `response`. Works without a model.',
        proofreadResponseSchema,
      ),
    },
    async (request, reply) => {
      const input = await readDocumentRequest(request);
      return runAsJob(request, reply, input, {
        kind: 'proofread',
        needsModel: false,
        fields: input.fields.text ? { text: input.fields.text } : {},
      });
    },
  );

  app.post(
    '/api/bulk-sentiment-analysis',
    {
      ...receivingAuth,
      schema: form(
        '`file` or `file_id`, optional `column` → VADER scores per row (csv/xlsx: in the ' +
          'column with the most words per cell, or `column`, one of `column_choices`; an ' +
          'unknown one is a 400) or paragraph. Works without a model.',
        sentimentResponseSchema,
      ),
    },
    async (request, reply) => {
      const input = await readDocumentRequest(request);
      const { column } = parse(sentimentRequestSchema, input.fields);
      return runAsJob(request, reply, input, {
        kind: 'sentiment',
        needsModel: false,
        fields: column === undefined ? {} : { column },
      });
    },
  );

  app.post(
    '/api/download-response',
    {
      ...auth,
      schema: {
        tags,
        security,
        body: downloadResponseRequestSchema,
        // No response schema: the answer is the file itself (errors are the usual `{ error }`).
        description: 'JSON `{ text, format, file_name? }` → the file as an attachment.',
      },
    },
    async (request, reply) => {
      requireUser(request);
      const { text, format, file_name } = request.body;
      const file = await exportText(text, format, file_name, abortOnDisconnect(reply));
      return reply
        .type(file.contentType)
        .header('content-disposition', contentDisposition('attachment', file.fileName))
        .send(file.body);
    },
  );
}
