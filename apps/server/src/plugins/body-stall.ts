import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Gives up a request whose client stops sending in the middle of its body (BODY_STALL_TIMEOUT_MS).
 * Until then such a request holds what its route took for it: an upload its quota reservation
 * and partial file, a handler and its parser. Node's own requestTimeout counts the whole body
 * instead, so it would cut a large upload on a slow link that is still moving; this one counts
 * silence only. Destroying the request is what a client that went away does, and every body
 * reader already lets go of its work then.
 */
async function bodyStallPlugin(app: FastifyInstance) {
  const stallMs = app.config.BODY_STALL_TIMEOUT_MS;
  if (stallMs === 0) return;
  app.addHook('onRequest', async (request) => {
    watchBodyStall(request.raw, stallMs, () =>
      request.log.info({ stallMs }, 'request body stalled: connection closed'),
    );
  });
}

const hasBody = (req: IncomingMessage) =>
  Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * Checks every `stallMs` whether the body moved. Bytes read from the socket are progress; bytes
 * waiting unread in the request mean the server is the slow side (its storage, say), not the
 * client. Never reads the body itself: a 'data' listener would start it flowing before its route.
 */
export function watchBodyStall(req: IncomingMessage, stallMs: number, onStall: () => void): void {
  if (req.complete || !hasBody(req)) return;
  let seen = req.socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || req.destroyed) return clearInterval(timer);
    const read = req.socket.bytesRead;
    if (read !== seen || req.readableLength > 0) {
      seen = read;
      return;
    }
    clearInterval(timer);
    onStall();
    req.destroy();
  }, stallMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  req.once('end', stop);
  req.once('close', stop);
}

export default fp(bodyStallPlugin, { name: 'body-stall' });
