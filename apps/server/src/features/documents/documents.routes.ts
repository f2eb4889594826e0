import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  askQuestionSchema,
  askQuestionsResponseSchema,
  downloadResponseRequestSchema,
  errorResponseSchema,
  proofreadResponseSchema,
  sentimentResponseSchema,
  summarizeResponseSchema,
  translateResponseSchema,
  translateStoredFileRequestSchema,
  translateTargetSchema,
  translateTextRequestSchema,
} from '@inkwell/contract';
import { badRequest } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';
import { contentDisposition } from '../files/file-names';
import type { FilesDeps } from '../files/files.service';
import { askDocument } from './ask.service';
import { documentText, readDocumentRequest } from './document-input';
import { exportText } from './export.service';
import type { AiDeps } from './model-calls';
import { proofread } from './proofread.service';
import { analyzeSentiment } from './sentiment.service';
import { summarizeDocument } from './summarize.service';
import { translateDocument, translateText } from './translate.service';

const tags = ['documents'];
const TRUNCATED_NOTE = '(This document is very long: only its first part was read and summarized.)';
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
  /** The model, and a signal that stops the remaining model calls when the client goes away. */
  const ai = (reply: FastifyReply): AiDeps => {
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('client went away'));
    });
    return { ai: app.ai, signal: controller.signal };
  };

  app.post(
    '/api/summarize',
    {
      ...auth,
      schema: form('`file` or `file_id` → `{ summary }` (map-reduce).', summarizeResponseSchema),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const doc = await documentText(files, user.id, await readDocumentRequest(request));
      const summary = await summarizeDocument(ai(reply), doc.units);
      return { summary: doc.truncated ? `${summary}\n\n${TRUNCATED_NOTE}` : summary };
    },
  );

  app.post(
    '/api/askQuestions',
    {
      ...auth,
      schema: form(
        '`file` or `file_id`, and the question `text` → `{ response }`.',
        askQuestionsResponseSchema,
      ),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const input = await readDocumentRequest(request);
      const question = parse(askQuestionSchema, input.fields.text);
      const doc = await documentText(files, user.id, input);
      const { response } = await askDocument(ai(reply), doc.units, question);
      return { response };
    },
  );

  app.post(
    '/api/translate',
    {
      ...auth,
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
        const doc = await documentText(files, user.id, input);
        return {
          translation: await translateDocument(ai(reply), doc.units, { target: target_language }),
        };
      }
      const t = parse(translateTextRequestSchema, input.fields);
      const translation = await translateText(ai(reply), t.text, {
        target: t.target_language,
        source: t.source_language,
      });
      return { translation };
    },
  );

  app.post(
    '/api/translate_stored_file',
    {
      ...auth,
      schema: form('`file_id`, `target_language` → `{ translation }`.', translateResponseSchema),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const input = await readDocumentRequest(request);
      const { target_language } = parse(translateStoredFileRequestSchema, input.fields);
      const doc = await documentText(files, user.id, { fields: input.fields });
      return {
        translation: await translateDocument(ai(reply), doc.units, { target: target_language }),
      };
    },
  );

  app.post(
    '/api/proofread',
    {
      ...auth,
      schema: form(
        '`file` or `file_id`, optional instruction `text` → issues from Harper, corrected text and `response`. Works without a model.',
        proofreadResponseSchema,
      ),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const input = await readDocumentRequest(request);
      const doc = await documentText(files, user.id, input);
      return proofread(ai(reply), doc.text, input.fields.text);
    },
  );

  app.post(
    '/api/bulk-sentiment-analysis',
    {
      ...auth,
      schema: form(
        '`file` or `file_id` → VADER scores per row (csv/xlsx) or paragraph. Works without a model.',
        sentimentResponseSchema,
      ),
    },
    async (request, reply) => {
      const user = requireUser(request);
      const doc = await documentText(files, user.id, await readDocumentRequest(request));
      return analyzeSentiment(ai(reply), doc);
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
      const file = await exportText(text, format, file_name);
      return reply
        .type(file.contentType)
        .header('content-disposition', contentDisposition('attachment', file.fileName))
        .send(file.body);
    },
  );
}
