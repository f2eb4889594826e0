import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { isDataException } from '../db/data-exception';
import { isTransientDatabaseError } from '../db/transient-error';
import { HttpError, insufficientStorage, routeNotFound } from '../lib/http-error';
import { isOutOfSpace } from '../lib/out-of-space';

/**
 * The one error handler: every failure leaves as `{ "error": "<message>" }` with its status.
 * Validation → 400 naming the field; known HTTP errors keep their message; a write that found
 * no room (disk, database) → 507; a database that could not serve for a moment (restarting,
 * connections cut, locked) → 503 with Retry-After, as the same request can succeed a little later;
 * a value the database refused (a data exception) → 400; anything else → 500 with no internals
 * (the details go to the log).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((caught: FastifyError, request, reply) => {
    const err = isOutOfSpace(caught) ? outOfSpace(caught) : caught;
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
    if (isDataException(err)) {
      // The request's fault, but one the contract should have refused: worth a look, not a page.
      request.log.warn({ err }, 'database refused a value of the request');
      return reply.code(400).send({ error: ERROR_MESSAGES.invalidValue });
    }
    if (isTransientDatabaseError(err)) {
      request.log.error({ err }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: ERROR_MESSAGES.databaseUnavailable });
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send({ error: ERROR_MESSAGES.internal });
  });

  app.setNotFoundHandler((request, reply) => {
    const { statusCode, message } = routeNotFound(request.method, request.url);
    reply.code(statusCode).send({ error: message });
  });
}

/** A write anywhere (a file, the database, the mail outbox) that found the disk full. */
function outOfSpace(err: Error): HttpError {
  if (err instanceof HttpError) return err; // a storage layer said so already
  const code = String((err as { code?: unknown }).code);
  const full = insufficientStorage(`out of space (${code}): ${err.message}`);
  full.cause = err;
  return full;
}

export default fp(errorsPlugin, { name: 'errors' });
