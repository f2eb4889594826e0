import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { contentSecurityPolicy } from '../lib/csp';

/** HSTS for a year once a browser has seen the product over https (helmet's own default). */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether this request reached the product over https: PUBLIC_URL says so for every request, or
 * the connection is TLS, or a trusted proxy (TRUST_PROXY) says X-Forwarded-Proto: https. Fastify's
 * `request.protocol` reads that header only from a trusted proxy.
 */
export function servedOverHttps(publicUrl: string | undefined, request: FastifyRequest): boolean {
  return publicUrl?.startsWith('https:') === true || request.protocol === 'https';
}

/**
 * Helmet's headers, with the two that only make sense over https added per request: over plain
 * HTTP (`http://inkwell.lan:8080/`, the default HOST answers every name), `upgrade-insecure-requests`
 * would make the browser fetch the bundle over https and show a white page, and HSTS is
 * meaningless (browsers ignore it there).
 */
async function securityHeadersPlugin(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: { ...contentSecurityPolicy(app.config), upgradeInsecureRequests: null },
    },
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!servedOverHttps(app.config.PUBLIC_URL, request)) return;
    const csp = reply.raw.getHeader('content-security-policy');
    if (typeof csp === 'string') {
      reply.raw.setHeader('content-security-policy', `${csp};upgrade-insecure-requests`);
    }
    reply.raw.setHeader('strict-transport-security', HSTS);
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
