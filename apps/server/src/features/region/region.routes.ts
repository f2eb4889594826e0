import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import geoip from 'geoip-country';
import { regionResponseSchema } from '@inkwell/contract';

/**
 * The visitor's country from an offline GeoIP database (no third-party lookup); null when it is
 * unknown. Always 200: a 404 here made every page load log an error in the browser's console.
 */
export async function regionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/region',
    {
      schema: { tags: ['site'], response: { 200: regionResponseSchema } },
    },
    async (request) => {
      const hit = geoip.lookup(request.ip.replace(/^::ffff:/, ''));
      return { country: hit?.country || null };
    },
  );
}
