import type { FastifyInstance } from 'fastify';
import { configureReader, warmReader } from './features/files';
import { registerJobKinds } from './job-kinds';
import aiPlugin from './plugins/ai';
import dbPlugin from './plugins/db';
import jobsPlugin from './plugins/jobs';
import storagePlugin from './plugins/storage';
import { registerShutdownOrder } from './shutdown-order';
import { configureCpuPool, cpuPool } from './workers/cpu-pool';

/**
 * What runs jobs, the same in an app server (app.ts) and in the worker (worker-app.ts): the
 * database, the file store, the model, the queue with every job kind, the document reader's OCR
 * setting, and the order in which they stop (shutdown-order.ts). Needs the metrics plugin first
 * (the model reports to it).
 */
export async function registerJobRuntime(app: FastifyInstance, opts: { pgSchema?: string }) {
  const { config } = app;
  await app.register(dbPlugin, { pgSchema: opts.pgSchema });
  await app.register(storagePlugin);
  await app.register(aiPlugin);
  await app.register(jobsPlugin, { pgSchema: opts.pgSchema });
  registerJobKinds(app);
  // The document reader is shared by the process (its worker threads), so are its settings.
  configureReader({
    ocrLanguages: config.OCR === 'off' ? [] : config.OCR_LANGUAGES,
    pdftotext: config.PDF_READER === 'pdfjs' ? '' : 'pdftotext',
  });
  // So is the CPU pool: its lanes' workers and its tasks' time limits.
  configureCpuPool({
    workers: config.CPU_WORKERS,
    anonymousWorkers: config.CPU_WORKERS_ANONYMOUS,
    timeLimits: config.CPU_TASK_TIME_LIMITS,
  });
  // Jobs handed over, then the browsers and worker pools they used.
  registerShutdownOrder(app);
}

/**
 * Starts a document reader's worker and a CPU worker as a server starts, not at a person's first
 * upload or preview: each loads for a second of CPU, much longer on a busy machine. Servers only
 * (server.ts, worker.ts): tests build many apps in one process and would pay it for each.
 */
export function warmWorkerPools(): void {
  warmReader();
  cpuPool().warm();
}
