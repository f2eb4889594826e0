import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  chatHistoryResponseSchema,
  chatResponseSchema,
  ERROR_MESSAGES,
  errorResponseSchema,
  messageResponseSchema,
  promptUsageSchema,
} from '@inkwell/contract';
import { HttpError } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';
import { readChatText } from './chat-input';
import { abortOnDisconnect } from '../../lib/abort-on-disconnect';
import { SseWriter, wantsEventStream } from '../../lib/sse-writer';
import * as chat from './chat.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
  503: errorResponseSchema,
  504: errorResponseSchema,
};

export async function chatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: chat.ChatDeps = {
    db: app.db,
    dialect: app.dialect,
    ai: app.ai,
    promptLimit: app.config.PROMPT_LIMIT,
  };
  const secured = { onRequest: app.authenticate };

  app.post(
    '/api/chat',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        description:
          'Multipart (or JSON / url-encoded) field `text`. With `Accept: text/event-stream` the reply ' +
          'streams as server-sent events `token`, then `done` (or `error`); see the contract.',
        response: { 200: chatResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const text = await readChatText(request);
      // Fails here, as a plain JSON answer, when the model is unavailable or the cap is reached.
      const run = await chat.startChat(deps, user.id, text);
      const signal = abortOnDisconnect(reply);
      if (!wantsEventStream(request)) return run.run({ signal });

      const sse = new SseWriter();
      sse.open(reply);
      // The reply is already being sent; the events follow as the model produces them.
      void (async () => {
        try {
          const done = await run.run({ signal, onToken: (t) => sse.send('token', { text: t }) });
          await sse.send('done', done);
        } catch (err) {
          if (!signal.aborted) {
            const status = err instanceof HttpError ? err.statusCode : 500;
            if (status >= 500) request.log.error({ err }, 'chat stream failed');
            const error = err instanceof HttpError ? err.message : ERROR_MESSAGES.internal;
            await sse.send('error', { error, status });
          }
        } finally {
          sse.end();
        }
      })();
      return reply;
    },
  );

  app.get(
    '/api/chat/history',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        response: { 200: chatHistoryResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => chat.getHistory(deps, requireUser(request).id),
  );

  app.get(
    '/api/chat/usage',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        response: { 200: promptUsageSchema, 401: errorResponseSchema },
      },
    },
    async (request) => chat.getUsage(deps, requireUser(request).id),
  );

  app.post(
    '/api/clearAllHistories',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        response: { 200: messageResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => {
      await chat.clearHistory(deps, requireUser(request).id);
      return { message: 'Chat history cleared' };
    },
  );
}
