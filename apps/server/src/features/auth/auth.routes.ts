import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PASSWORD_RESET_REQUESTED_MESSAGE,
  errorResponseSchema,
  loginRequestSchema,
  messageResponseSchema,
  refreshResponseSchema,
  registerRequestSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  tokensResponseSchema,
} from '@inkwell/contract';
import { bearerToken } from '../../lib/access-token';
import { HttpError } from '../../lib/http-error';
import { publicAppUrl } from '../../lib/public-url';
import { requireUser } from '../../plugins/auth';
import * as auth from './auth.service';
import { refuseIfSpent } from './limited-password-check';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema };

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = { db: app.db, dialect: app.dialect, tokens: app.accessTokens };
  const registration = {
    mode: app.config.REGISTRATION,
    domains: app.config.REGISTRATION_DOMAINS,
  };
  const limited = { rateLimit: app.authRateLimit };

  app.post(
    '/api/register',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        body: registerRequestSchema,
        response: {
          201: tokensResponseSchema,
          403: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await auth.register({ ...deps, registration }, request.body)),
  );

  app.post(
    '/api/login',
    {
      schema: {
        tags: ['auth'],
        body: loginRequestSchema,
        response: {
          200: tokensResponseSchema,
          403: errorResponseSchema,
          503: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request) => {
      // Counted before the password is checked (a burst gets no more checks than the limit), and
      // given back unless the password was wrong: many people signing in from one address are
      // never refused.
      const attempt = await app.signInLimit.attempt(request.ip);
      refuseIfSpent(attempt);
      try {
        const session = await auth.login(deps, request.body);
        await attempt.refund();
        return session;
      } catch (err) {
        if (!(err instanceof HttpError && err.statusCode === 401)) await attempt.refund();
        throw err;
      }
    },
  );

  app.post(
    '/api/token/refresh',
    { schema: { tags: ['auth'], response: { 200: refreshResponseSchema, ...errors } } },
    async (request) => auth.refresh(deps, bearerToken(request.headers.authorization)),
  );

  app.post(
    '/api/logout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        security: [{ bearer: [] }],
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      // The jobs this session started stop first, while it still holds (issue 26): the web app
      // sends no cancels after it. The same user's work on other devices goes on (issue 36).
      await app.jobs.cancelSessionJobs(user.id, user.sessionId);
      await auth.logout(deps, user.sessionId);
      return { message: 'Logged out' };
    },
  );

  app.post(
    '/api/request_password_reset',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        body: requestPasswordResetSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      // The answer goes first, the same for every address; the lookup and the mail follow it, so
      // neither a known address nor a slow mail server shows in the time it takes.
      reply.raw.once('finish', () => {
        auth
          .requestPasswordReset(
            { ...deps, mailer: app.mailer, resetUrlBase: publicAppUrl(app.config) },
            request.body.email,
          )
          .catch((err: unknown) => request.log.error({ err }, 'password reset mail not sent'));
      });
      return { message: PASSWORD_RESET_REQUESTED_MESSAGE };
    },
  );

  app.post(
    '/api/reset_password',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        body: resetPasswordSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => ({ message: await auth.resetPassword(deps, request.body) }),
  );
}
