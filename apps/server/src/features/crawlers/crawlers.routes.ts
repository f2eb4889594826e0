import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { robotsTxt, sitemapXml } from './crawlers';

/**
 * GET {BASE_PATH}robots.txt and {BASE_PATH}sitemap.xml (and /robots.txt at the server's root,
 * where crawlers look for it, when the base path is not `/`). Absolute addresses come from
 * PUBLIC_URL, or from the request's own host when it is not set.
 */
export async function crawlersRoutes(app: FastifyInstance) {
  const base = app.config.BASE_PATH;
  const appUrl = (request: FastifyRequest) =>
    `${(app.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).replace(/\/$/, '')}${base}`;
  const schema = { hide: true };
  const robots = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(base, appUrl(request)));
  app.get(`${base}robots.txt`, { schema }, robots);
  if (base !== '/') app.get('/robots.txt', { schema }, robots);
  app.get(`${base}sitemap.xml`, { schema }, async (request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemapXml(appUrl(request))),
  );
}
