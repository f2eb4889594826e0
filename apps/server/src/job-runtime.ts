import type { FastifyInstance } from 'fastify';
import { closeSharedBrowsers } from './features/analysis/browser/shared-browser';
import { configureReader } from './features/documents/reader';
import { registerJobKinds } from './features/jobs/kinds';
import aiPlugin from './plugins/ai';
import dbPlugin from './plugins/db';
import jobsPlugin from './plugins/jobs';
import storagePlugin from './plugins/storage';
import { closeCpuPool } from './workers/cpu-pool';

/**
 * What runs jobs, the same in an app server (app.ts) and in the worker (worker-app.ts): the
 * database, the file store, the model, the queue with every job kind, the document reader's OCR
 * setting, and the shared Chromium closed with the process. Needs the metrics plugin first (the
 * model reports to it).
 */
export async function registerJobRuntime(app: FastifyInstance, opts: { pgSchema?: string }) {
  const { config } = app;
  await app.register(dbPlugin, { pgSchema: opts.pgSchema });
  await app.register(storagePlugin);
  await app.register(aiPlugin);
  await app.register(jobsPlugin, { pgSchema: opts.pgSchema });
  registerJobKinds(app);
  // The document reader is shared by the process (its worker threads), so is its OCR setting.
  configureReader({ ocrLanguages: config.OCR === 'off' ? [] : config.OCR_LANGUAGES });
  // Page analysis keeps one warm Chromium for the whole process (launched on first use).
  app.addHook('onClose', () => closeSharedBrowsers());
  // The CPU-heavy steps' worker threads (workers/cpu-pool.ts).
  app.addHook('onClose', () => closeCpuPool());
}
