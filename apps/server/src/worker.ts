import { ConfigError, loadConfig } from './config';
import { buildWorker } from './worker-app';
import { warmWorkerPools } from './job-runtime';
import { readEnvironment } from './environment';
import { guardProcess } from './lib/process-guards';

/**
 * `npm run worker`: a process that only runs jobs (document actions, page analyses) for the app
 * servers of a deployment on PostgreSQL, with every job kind (job-kinds.ts) and no API:
 * it answers only its health checks on WORKER_PORT (worker-app.ts). An OpenAI-compatible model
 * server's AI_PARALLEL slots are shared with the app servers through the database
 * (features/ai/scheduling/shared-slots.ts); an embedded model is its own, LLAMA_SEQUENCES calls at once.
 */
async function main() {
  let config;
  try {
    config = loadConfig({ ...readEnvironment(), JOB_WORKER: 'on' });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  if (!config.DATABASE_URL) {
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL): with SQLite the app server runs its jobs itself.',
    );
    process.exit(1);
  }
  const app = await buildWorker(config);
  guardProcess(app);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'worker shutting down');
      const force = setTimeout(() => process.exit(1), 10_000);
      force.unref();
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  await app.listen({ port: config.WORKER_PORT, host: config.HOST });
  const port = (app.server.address() as { port: number }).port;
  warmWorkerPools();
  console.log(
    `\n  Inkwell worker is running jobs (${config.JOB_CONCURRENCY} at once); health at port ${port}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
