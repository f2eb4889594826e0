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
import { configureReader } from './features/documents/reader';
import aiPlugin from './plugins/ai';
import authPlugin from './plugins/auth';
import dbPlugin from './plugins/db';
import jobsPlugin from './plugins/jobs';
import errorsPlugin from './plugins/errors';
import mailerPlugin from './plugins/mailer';
import metricsPlugin from './plugins/metrics';
import noStorePlugin from './plugins/no-store';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rate-limit';
import securityHeadersPlugin from './plugins/security-headers';
import storagePlugin from './plugins/storage';
import webPlugin from './plugins/web';
import { parseTrustProxy } from './lib/trust-proxy';
import { loggerOptions } from './lib/logger';
import { closeSharedBrowsers } from './features/analysis/shared-browser';

export interface BuildAppOptions {
  /** PostgreSQL schema to isolate in (tests). */
  pgSchema?: string;
  /** Overrides the pino options (tests pass false to silence logs). */
  logger?: FastifyServerOptions['logger'];
  /** Where the built web app is (defaults to apps/web/dist). */
  webDistDir?: string;
  /**
   * `worker` (npm run worker): a process that runs jobs for the app servers. It leaves the
   * upload sweeps to them: on a disk it shares with one, it would take that server's running
   * uploads for leftovers.
   */
  role?: 'server' | 'worker';
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
    role: 'server' | 'worker';
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
  app.decorate('role', opts.role ?? 'server');

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
  await app.register(multipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 25 },
  });
  await app.register(dbPlugin, { pgSchema: opts.pgSchema });
  await app.register(storagePlugin);
  await app.register(mailerPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(openapiPlugin);
  await app.register(aiPlugin);
  await app.register(jobsPlugin, { pgSchema: opts.pgSchema });

  // The document reader is shared by the process (its worker threads), so is its OCR setting.
  configureReader({ ocrLanguages: config.OCR === 'off' ? [] : config.OCR_LANGUAGES });
  await registerFeatures(app);
  // Page analysis keeps one warm Chromium for the whole process (launched on first use).
  app.addHook('onClose', () => closeSharedBrowsers());

  await app.register(webPlugin, { distDir: opts.webDistDir });
  return app;
}
