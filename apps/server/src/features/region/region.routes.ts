import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import geoip from 'geoip-country';
import { errorResponseSchema, regionResponseSchema } from '@inkwell/contract';
import { notFound } from '../../lib/http-error';

/** The visitor's country from an offline GeoIP database (no third-party lookup). */
export async function regionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/region',
    {
      schema: { tags: ['site'], response: { 200: regionResponseSchema, 404: errorResponseSchema } },
    },
    async (request) => {
      const hit = geoip.lookup(request.ip.replace(/^::ffff:/, ''));
      if (!hit?.country) throw notFound('Region unknown');
      return { country: hit.country };
    },
  );
}
