import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dictionaryAddRequestSchema,
  dictionaryResponseSchema,
  dictionaryWordSchema,
  errorResponseSchema,
} from '@inkwell/contract';
import { requireUser } from '../../plugins/auth';
import { addWord, listWords, removeWord } from './dictionary.service';

/** The personal dictionary of the signed-in user (contract dictionary.ts). */
export async function dictionaryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const secured = { onRequest: app.authenticate };
  const meta = { tags: ['dictionary'], security: [{ bearer: [] }] };
  const errors = { 400: errorResponseSchema, 401: errorResponseSchema };

  app.get(
    '/api/dictionary',
    {
      ...secured,
      schema: {
        ...meta,
        description: 'The words proofreading keeps as written for this user.',
        response: { 200: dictionaryResponseSchema, ...errors },
      },
    },
    async (request) => listWords(app.db, requireUser(request).id),
  );

  app.post(
    '/api/dictionary',
    {
      ...secured,
      schema: {
        ...meta,
        description: 'JSON `{ word }` → the dictionary; 201 when the word was added.',
        body: dictionaryAddRequestSchema,
        response: { 200: dictionaryResponseSchema, 201: dictionaryResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { words, added } = await addWord(
        app.db,
        app.dialect,
        requireUser(request).id,
        request.body.word,
      );
      return reply.code(added ? 201 : 200).send({ words });
    },
  );

  app.delete(
    '/api/dictionary/:word',
    {
      ...secured,
      schema: {
        ...meta,
        params: z.object({ word: dictionaryWordSchema }),
        response: { 200: dictionaryResponseSchema, 404: errorResponseSchema, ...errors },
      },
    },
    async (request) => removeWord(app.db, requireUser(request).id, request.params.word),
  );
}
