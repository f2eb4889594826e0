import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import { healthRoutes } from './features/health';
import { registerJobRuntime } from './job-runtime';
import { loggerOptions } from './lib/logger';
import errorsPlugin from './plugins/errors';
import metricsPlugin from './plugins/metrics';

export interface BuildWorkerOptions {
  /** PostgreSQL schema to isolate in (tests). */
  pgSchema?: string;
  logger?: FastifyServerOptions['logger'];
}

/**
 * `npm run worker`'s process: the queue with every job kind, the model and the file store, and
 * no API. Over HTTP it answers only its health checks (/api/health, /api/ready) and /metrics
 * (as restricted as an app server's); anything else is a 404.
 */
export async function buildWorker(config: Config, opts: BuildWorkerOptions = {}) {
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config.LOG_LEVEL),
    forceCloseConnections: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin);
  await registerJobRuntime(app, { pgSchema: opts.pgSchema });
  await app.register(healthRoutes);
  return app;
}
