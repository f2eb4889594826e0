export { type JobContext, type PartCache } from './job-kinds';
export { answerJob } from './job-stream';
export { jobsRoutes } from './jobs.routes';
export { Jobs, type NewJob } from './jobs.service';
export { LocalJobQueue } from './queue/local-job-queue';
export { PgBossJobQueue } from './queue/pg-boss-job-queue';
export { jobsAccountCleanup } from './job-objects';
