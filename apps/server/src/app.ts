import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { MAX_FILE_BYTES } from '@inkwell/contract';
import type { Config } from './config';
import { registerFeatures } from './features';
import { configurePasswordHashing } from './features/auth';
import { registerJobRuntime } from './job-runtime';
import authPlugin from './plugins/auth';
import bodyStallPlugin from './plugins/body-stall';
import errorsPlugin from './plugins/errors';
import mailerPlugin from './plugins/mailer';
import metricsPlugin from './plugins/metrics';
import noStorePlugin from './plugins/no-store';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rate-limit';
import securityHeadersPlugin from './plugins/security-headers';
import webPlugin from './plugins/web';
import { parseTrustProxy } from './lib/trust-proxy';
import { loggerOptions } from './lib/logger';

export interface BuildAppOptions {
  /** PostgreSQL schema to isolate in (tests). */
  pgSchema?: string;
  /** Overrides the pino options (tests pass false to silence logs). */
  logger?: FastifyServerOptions['logger'];
  /** Where the built web app is (defaults to apps/web/dist). */
  webDistDir?: string;
}

export type App = FastifyInstance;

export interface RouteEntry {
  method: string;
  url: string;
  /** True when the route runs `app.authenticate` before anything else. */
  authenticated: boolean;
  /** True when the route also runs `app.requireOperator` (operators only; 404 to other users). */
  operator: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** Builds the whole product as one Fastify app: infrastructure plugins, then features, then the web app. */
export async function buildApp(config: Config, opts: BuildAppOptions = {}) {
  const apiUnderBase = `${config.BASE_PATH}api/`;
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config.LOG_LEVEL),
    trustProxy: parseTrustProxy(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    // On close, end idle keep-alive sockets too, so shutdown never waits on a client that went quiet.
    forceCloseConnections: true,
    // The API answers at /api and, when mounted under a base path, at {base}api too.
    rewriteUrl: (req) =>
      config.BASE_PATH !== '/' && req.url?.startsWith(apiUnderBase)
        ? `/api/${req.url.slice(apiUnderBase.length)}`
        : (req.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>();

  // The route table, recorded as routes register: the authorization matrix test is generated from it.
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest ?? []].flat();
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        authenticated: hooks.includes(app.authenticate),
        operator: hooks.includes(app.requireOperator),
      });
    }
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  // A process-wide setting: new password hashes are made at the configured cost.
  configurePasswordHashing({
    memoryKib: config.PASSWORD_HASH_MEMORY_KIB,
    passes: config.PASSWORD_HASH_PASSES,
  });

  // HTML forms post url-encoded bodies (page analysis, translate).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  await app.register(errorsPlugin);
  await app.register(noStorePlugin);
  await app.register(metricsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(bodyStallPlugin);
  await app.register(multipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 25 },
  });
  await registerJobRuntime(app, { pgSchema: opts.pgSchema });
  await app.register(mailerPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(openapiPlugin);
  await registerFeatures(app);

  await app.register(webPlugin, { distDir: opts.webDistDir });
  return app;
}
