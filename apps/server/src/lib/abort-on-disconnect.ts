import type { FastifyReply } from 'fastify';

/**
 * A signal that fires when the client goes away before its answer is complete: the work done
 * for it (model calls, page fetches) stops instead of running for no one.
 */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client went away'));
  });
  return controller.signal;
}
