import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Jobs, LocalJobQueue, PgBossJobQueue } from '../features/jobs';

declare module 'fastify' {
  interface FastifyInstance {
    /** Long AI work as jobs (features/jobs): features register their kinds, endpoints create jobs. */
    jobs: Jobs;
  }
}

export interface JobsPluginOptions {
  /** PostgreSQL schema the app is isolated in (tests): pg-boss gets one beside it. */
  pgSchema?: string;
}

/** The longest a job may run: pg-boss keeps its message this long. */
const MAX_RUN_SECONDS = 12 * 3600;

/**
 * Jobs go through pg-boss on PostgreSQL (every app server and worker shares the queue) and an
 * in-process queue on SQLite (one process). They start running once every feature has
 * registered its kinds, and stop (given back to the queue) when the app closes.
 */
async function jobsPlugin(app: FastifyInstance, opts: JobsPluginOptions) {
  const { config } = app;
  const postgres = app.dialect === 'postgres';
  const queue = postgres
    ? new PgBossJobQueue({
        connectionString: config.DATABASE_URL!,
        schema: opts.pgSchema ? `${opts.pgSchema}_queue` : config.JOB_QUEUE_SCHEMA,
        maxRunSeconds: MAX_RUN_SECONDS,
      })
    : new LocalJobQueue((err) => app.log.error({ err }, 'job queue: a run failed unexpectedly'));
  const jobs = new Jobs({
    db: app.db,
    dialect: app.dialect,
    storage: app.storage,
    queue,
    log: app.log,
    newProgress: () => app.newWorkProgress(),
    // With SQLite this process is the only one: it must run the jobs.
    runsJobs: config.JOB_WORKER || !postgres,
    concurrency: config.JOB_CONCURRENCY,
    perOwner: config.JOBS_PER_USER,
    maxQueuedPerOwner: config.JOBS_QUEUED_PER_USER,
    staleMs: config.JOB_STALE_MS,
    pollMs: Math.min(1000, Math.max(100, Math.floor(config.JOB_STALE_MS / 10))),
    singleProcess: !postgres,
  });
  app.decorate('jobs', jobs);
  app.addHook('onReady', () => jobs.start());
}

export default fp(jobsPlugin, { name: 'jobs', dependencies: ['db', 'storage', 'ai'] });
