import PgBoss from 'pg-boss';
import type { JobQueue } from './job-queue';

/**
 * The queue of a deployment on PostgreSQL: pg-boss, so any app server or `npm run worker` process
 * with a free place is woken, and messages survive restarts. pg-boss's order is first in, first
 * out (its v10 policy queues, singleton and stately, allow one active job per `singletonKey`, not
 * a cap of N, and give no turns between keys), so a message only says "a job is ready": the process that takes it picks the next job in
 * turn between owners from the job table (job-turns.repo.ts, `FOR UPDATE SKIP LOCKED`).
 *
 * pg-boss only knows a message is lost when it expires (it has no heartbeat); our job row has one
 * (jobs.repo.ts heartbeat, JOB_STALE_MS), and a job whose worker went silent is put back with a
 * new message by the maintenance sweep. Messages therefore never retry by themselves and expire
 * only after the longest time a job may run.
 */
const QUEUE = 'inkwell-jobs';

export interface PgBossQueueOptions {
  connectionString: string;
  /** Where pg-boss keeps its tables. */
  schema: string;
  /** The longest a job may run before pg-boss gives up its message. */
  maxRunSeconds: number;
}

export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly workers: string[] = [];
  private started: Promise<void> | undefined;

  constructor(private readonly opts: PgBossQueueOptions) {
    this.boss = new PgBoss({
      connectionString: opts.connectionString,
      schema: opts.schema,
      max: 4,
      // Our own sweep decides what is lost; pg-boss's maintenance only tidies its tables.
      supervise: true,
      schedule: false,
    });
    this.boss.on('error', () => {
      // Connection errors are retried by pg-boss; the job rows keep the truth meanwhile.
    });
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      await this.boss.createQueue(QUEUE, {
        name: QUEUE,
        retryLimit: 0,
        expireInSeconds: this.opts.maxRunSeconds,
      });
    })();
    return this.started;
  }

  async enqueue(jobId: string) {
    await this.start();
    const id = await this.boss.send(QUEUE, { jobId });
    // A worker of this process waiting on its polling interval takes it now.
    for (const w of this.workers) this.boss.notifyWorker(w);
    return id ?? undefined;
  }

  async consume(concurrency: number, run: (jobId: string) => Promise<void>) {
    await this.start();
    for (let i = 0; i < concurrency; i++) {
      this.workers.push(
        await this.boss.work<{ jobId: string }>(
          QUEUE,
          { batchSize: 1, pollingIntervalSeconds: 0.5 },
          async ([job]) => {
            if (job) await run(job.data.jobId);
          },
        ),
      );
    }
  }

  async stopTaking() {
    if (this.workers.length) await this.boss.offWork(QUEUE);
  }

  async isPending(queueId: string) {
    await this.start();
    const job = await this.boss.getJobById(QUEUE, queueId);
    return job !== null && ['created', 'retry', 'active'].includes(job.state);
  }

  async close() {
    if (!this.started) return;
    await this.started.catch(() => {});
    // Running jobs are not waited for: their rows go stale and another process resumes them.
    await this.boss.stop({ graceful: false, wait: true, close: true }).catch(() => {});
  }
}
