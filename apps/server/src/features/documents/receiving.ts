import type { FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../../lib/http-error';
import { requireUser } from '../../plugins/auth';

/**
 * A person's document requests this process receives at once. Each one's upload (up to 10 MB)
 * is held in memory and stored before the queued-jobs cap (JOBS_QUEUED_PER_USER) can refuse it:
 * one account sending 300 uploads at once made this process hold and store 3 GB to refuse 280
 * of them. A request counts from its sign-in check until its job is queued (or it is answered),
 * so a job's progress, streamed on the same request, does not count; a request for a stored
 * file is received in milliseconds.
 */
export const RECEIVING_PER_USER = 4;

export const RECEIVING_MESSAGE =
  'You are sending too many documents at once. Wait for one to arrive, then try again.';

/** One per app (a test process runs several, each with its own users). */
export function receivingLimit() {
  const receiving = new Map<number, number>();
  const releases = new WeakMap<FastifyRequest, () => void>();
  return {
    /** An onRequest hook after the sign-in check: admits the request, or answers 429 at once. */
    async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const userId = requireUser(request).id;
      const now = receiving.get(userId) ?? 0;
      if (now >= RECEIVING_PER_USER) throw tooManyRequests(RECEIVING_MESSAGE, 1);
      receiving.set(userId, now + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (receiving.get(userId) ?? 1) - 1;
        if (left > 0) receiving.set(userId, left);
        else receiving.delete(userId);
      };
      releases.set(request, release);
      reply.raw.once('close', release);
    },
    /** The request's document has arrived and its job is queued (or refused): it counts no more. */
    received(request: FastifyRequest): void {
      releases.get(request)?.();
    },
  };
}
