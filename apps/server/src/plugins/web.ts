import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const WEB_DIST = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../web/dist',
);

/**
 * Serves the built web app under BASE_PATH. The app is built with relative asset URLs; the
 * `<base href>` injected here makes them (and the router) work under any base path, so one build
 * serves every deployment. Unknown paths under the base get the app, which shows its 404 page.
 */
async function webPlugin(app: FastifyInstance, opts: { distDir?: string }) {
  const dist = opts.distDir ?? WEB_DIST;
  const base = app.config.BASE_PATH;
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`web app not built (${indexFile} missing): run "npm run build"`);
    return;
  }
  const indexHtml = readFileSync(indexFile, 'utf8').replace(
    '<head>',
    `<head>\n    <base href="${base}" />`,
  );

  await app.register(fastifyStatic, {
    root: dist,
    prefix: base,
    wildcard: false,
    index: false,
    allowedPath: (p) => p !== '/index.html',
    setHeaders: (res, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      }
    },
  });

  app.get(`${base}*`, { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.code(404).send({ error: `Route GET ${request.url.split('?')[0]} not found` });
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(indexHtml);
  });
  if (base !== '/') {
    app.get(base.slice(0, -1), { schema: { hide: true } }, async (_req, reply) =>
      reply.redirect(base),
    );
  }
}

export default fp(webPlugin, { name: 'web', dependencies: ['db'] });
