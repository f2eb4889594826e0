import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  chatHistoryResponseSchema,
  CHAT_STREAM_EVENTS,
  chatResponseSchema,
  errorResponseSchema,
  idParamsSchema,
  messageResponseSchema,
  promptUsageSchema,
} from '@inkwell/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';
import { readChatText } from './chat-input';
import { abortOnDisconnect } from '../../lib/abort-on-disconnect';
import { SseWriter, wantsEventStream } from '../../lib/sse-writer';
import * as chat from './chat.service';
import { followReply, stopReply } from './reply-follow';
import type { LiveReplies, ReplyEnd, ReplyNews } from './live-replies';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
  503: errorResponseSchema,
  504: errorResponseSchema,
};

export interface ChatRoutesOptions {
  /** The replies this process generates (features/index.ts: account deletion stops a user's). */
  replies: LiveReplies;
}

export async function chatRoutes(fastify: FastifyInstance, opts: ChatRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const staleMs = app.config.JOB_STALE_MS;
  const deps: chat.ChatDeps & { pollMs: number } = {
    db: app.db,
    dialect: app.dialect,
    ai: app.ai,
    promptLimit: app.config.PROMPT_LIMIT,
    replies: opts.replies,
    // The jobs' heartbeat and poll: a reply followed from another server lags by about this.
    saveEveryMs: Math.min(1000, Math.max(100, Math.floor(staleMs / 10))),
    pollMs: Math.min(1000, Math.max(100, Math.floor(staleMs / 10))),
    staleMs,
  };
  // A server stopping stores its replies as stopped, with what they had.
  app.addHook('preClose', () => deps.replies.stopAll());
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
          'streams as server-sent events `reply`, `token`, then `done` (or `error`); see the contract.',
        response: { 200: chatResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const text = await readChatText(request);
      // Fails here, as a plain JSON answer, when the model is unavailable or the cap is reached.
      const live = await chat.startChat(deps, user.id, text);
      if (!wantsEventStream(request)) {
        await live.whenEnded();
        return answerOf(live.ended!, request);
      }
      // The reply is already being sent; the events follow as the model produces them. A client
      // that goes away stops listening; the reply goes on.
      const sse = new SseWriter();
      sse.open(reply);
      const unsubscribe = live.subscribe((news) => void sendNews(sse, news, request));
      reply.raw.on('close', unsubscribe);
      void live.whenEnded().then(() => {
        unsubscribe();
        sse.end();
      });
      return reply;
    },
  );

  app.get(
    '/api/chat/replies/:id/events',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        params: idParamsSchema,
        description:
          'Server-sent events of one reply from its start: `token` (the text so far, then each ' +
          'piece), then `done` or `error`. Follows a reply generated on any app server.',
        response: { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const userId = requireUser(request).id;
      const gone = abortOnDisconnect(reply);
      const sse = new SseWriter();
      let opened = false;
      // 404 as JSON when the reply is not the user's: the stream opens with the first news.
      await followReply(
        deps,
        userId,
        request.params.id,
        (news) => {
          if (!opened) {
            opened = true;
            sse.open(reply);
          }
          void sendNews(sse, news);
        },
        gone,
      ).finally(() => {
        if (opened) sse.end();
      });
      return reply;
    },
  );

  app.post(
    '/api/chat/replies/:id/stop',
    {
      ...secured,
      schema: {
        tags: ['chat'],
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: {
          200: messageResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      await stopReply(deps, requireUser(request).id, request.params.id);
      return { message: 'Reply stopped' };
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
      const user = requireUser(request);
      // Work asked in the old conversation stops with it, on every device (as New Topic does
      // here): its jobs, and its replies still being written (chat.service.ts clearHistory).
      await app.jobs.cancelAllOf(user.id);
      await chat.clearHistory(deps, user.id);
      return { message: 'Chat history cleared' };
    },
  );
}

/** One piece of a reply's news as its server-sent event (contract chat.ts). */
function sendNews(sse: SseWriter, news: ReplyNews, request?: FastifyRequest) {
  switch (news.kind) {
    case 'id':
      return sse.send(CHAT_STREAM_EVENTS.reply, { id: news.id });
    case 'token':
      return sse.send(CHAT_STREAM_EVENTS.token, { text: news.text });
    case 'done':
      return sse.send(CHAT_STREAM_EVENTS.done, news.done);
    case 'error':
      if (request) logFailure(news, request);
      return sse.send(CHAT_STREAM_EVENTS.error, news.error);
  }
}

/** The JSON answer of an ended reply: the reply, or its failure as the error it was. */
function answerOf(end: ReplyEnd, request: FastifyRequest) {
  if (end.kind === 'done') return end.done;
  logFailure(end, request);
  throw new HttpError(end.error.status, end.error.error);
}

function logFailure(end: Extract<ReplyEnd, { kind: 'error' }>, request: FastifyRequest) {
  if (end.error.status >= 500) request.log.error({ err: end.cause }, 'chat reply failed');
}
