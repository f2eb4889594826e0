import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { HttpError, routeNotFound } from '../lib/http-error';

/**
 * The one error handler: every failure leaves as `{ "error": "<message>" }` with its status.
 * Validation → 400 naming the field; known HTTP errors keep their message; anything else → 500
 * with no internals (the details go to the log).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      if (err.statusCode >= 500) request.log.error({ err }, err.detail ?? err.message);
      return reply.code(err.statusCode).headers(err.headers).send({ error: err.message });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const message = first?.message ?? 'Invalid request';
      return reply.code(400).send({ error: field ? `${field}: ${message}` : message });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) {
      return reply.code(429).send({ error: ERROR_MESSAGES.rateLimited });
    }
    if (status === 413) {
      return reply.code(413).send({ error: ERROR_MESSAGES.fileTooLarge });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, ...) carry safe messages.
      return reply.code(status).send({ error: err.message });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: ERROR_MESSAGES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    const { statusCode, message } = routeNotFound(request.method, request.url);
    reply.code(statusCode).send({ error: message });
  });
}

export default fp(errorsPlugin, { name: 'errors' });
