import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { APP_ROUTES } from '@inkwell/contract';

export const WEB_DIST = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../web/dist',
);

/**
 * Serves the built web app under BASE_PATH. The app is built with relative asset URLs; the
 * `<base href>` injected here makes them (and the router) work under any base path, so one build
 * serves every deployment. The app's own screens (contract APP_ROUTES) answer 200; any other path
 * under the base answers 404 with the app, which shows its 404 page (a crawler, or our own SEO
 * audit, sees the status a missing page should have).
 * Files are sent as the build compressed them (`file.br`, `file.gz`: apps/web/build/precompress.ts)
 * to browsers that accept it; the page itself is compressed once, here, after the injection.
 */
async function webPlugin(app: FastifyInstance, opts: { distDir?: string }) {
  const dist = opts.distDir ?? WEB_DIST;
  const base = app.config.BASE_PATH;
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`web app not built (${indexFile} missing): run "npm run build"`);
    return;
  }
  const indexHtml = compressedPage(
    readFileSync(indexFile, 'utf8').replace('<head>', `<head>\n    <base href="${base}" />`),
  );

  await app.register(fastifyStatic, {
    root: dist,
    prefix: base,
    wildcard: false,
    index: false,
    preCompressed: true,
    // Set below per file: `send` would otherwise overwrite it with max-age=0 for every file.
    cacheControl: false,
    // Neither the page nor the compressed copies are files to fetch by their own name.
    allowedPath: (p) => p !== '/index.html' && !/\.(?:br|gz)$/.test(p),
    setHeaders: (res, filePath) => {
      res.setHeader(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=0',
      );
      // Caches must keep the compressed and plain answers apart.
      res.setHeader('vary', 'accept-encoding');
    },
  });

  app.get(`${base}*`, { schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.code(404).send({ error: `Route GET ${request.url.split('?')[0]} not found` });
    }
    const encoding = acceptedEncoding(request);
    if (encoding) reply.header('content-encoding', encoding);
    if (!isAppRoute(request.url, base)) reply.code(404);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .send(indexHtml[encoding ?? 'identity']);
  });
  if (base !== '/') {
    app.get(base.slice(0, -1), { schema: { hide: true } }, async (_req, reply) =>
      reply.redirect(base),
    );
  }
}

const APP_PATHS = new Set<string>(APP_ROUTES);

/** Whether a path under the base is one of the app's screens (a trailing slash is the same). */
function isAppRoute(url: string, base: string): boolean {
  const path = `/${url.split(/[?#]/)[0]!.slice(base.length)}`.replace(/(.)\/+$/, '$1');
  return APP_PATHS.has(path);
}

/** The page as sent: plain, brotli and gzip (it is small: compressed once at start-up). */
function compressedPage(html: string) {
  const bytes = Buffer.from(html);
  return {
    identity: bytes,
    br: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    }),
    gzip: gzipSync(bytes, { level: 9 }),
  };
}

/** brotli when the browser takes it, else gzip, else none (q=0 refuses an encoding). */
function acceptedEncoding(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const header = String(request.headers['accept-encoding'] ?? '');
  const accepted = new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^\s*q=0(?:\.0*)?\s*$/.test(q))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

export default fp(webPlugin, { name: 'web', dependencies: ['db'] });
