import type { FastifyReply } from 'fastify';

/**
 * A signal that fires when the client goes away before its answer is complete: the work done
 * for it (model calls, page fetches, a job watcher's polls) stops instead of running for no one.
 * A client already gone when this is called (it left while the route awaited something) gives a
 * signal aborted at once: its `close` event has passed, and a listener added now never fires.
 */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => controller.abort(new Error('client went away'));
  if (reply.raw.destroyed && !reply.raw.writableFinished) gone();
  else
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) gone();
    });
  return controller.signal;
}
