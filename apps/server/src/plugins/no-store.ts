import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * `Cache-Control: no-store` on every API answer, errors included: they carry profiles, tokens,
 * files and exports, which no browser cache, shared proxy or back button may keep. (A route that
 * says more, like the chat stream's `no-transform`, keeps its words after `no-store`.)
 */
async function noStorePlugin(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const own = reply.getHeader('cache-control');
    if (typeof own !== 'string' || !/\bno-store\b/.test(own)) {
      reply.header('cache-control', own ? `no-store, ${String(own)}` : 'no-store');
    }
    return payload;
  });
}

export default fp(noStorePlugin, { name: 'no-store' });
