import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from '../../../../lib/http-error';

/** What a failed generation answers: the caller's own abort, a too-long prompt (400), else 500. */
export function generationError(
  err: unknown,
  log: FastifyBaseLogger,
  callerSignal?: AbortSignal,
): unknown {
  if (callerSignal?.aborted) return callerSignal.reason ?? err;
  if (err instanceof HttpError) return err;
  if (err instanceof Error && /too long prompt|context size/i.test(err.message)) {
    return new HttpError(
      400,
      "The message is too long for the model's context. Start a new topic or shorten it.",
    );
  }
  log.error({ err }, 'AI: generation failed');
  return new HttpError(500, 'The language model failed to generate a reply.');
}
