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

/** PostgreSQL's deadlock and serialization failures: the transaction lost a race, nothing else. */
const LOST_RACE = new Set(['40P01', '40001']);
const CREATE_ATTEMPTS = 8;

/** How often an idle consumer asks for a message (an enqueue in this process wakes it at once). */
const POLL_MS = 500;

export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private started: Promise<void> | undefined;
  /** The consumers' loops, while they run; `taking` false stops them between messages. */
  private readonly loops: Promise<void>[] = [];
  private taking = false;
  /** Wakes consumers waiting for their next poll. */
  private wake = new AbortController();

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
    // A start that failed (the database down a moment) is tried again by the next call.
    this.started ??= (async () => {
      await this.boss.start();
      await this.createQueue();
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  /**
   * pg-boss's create_queue is one transaction that inserts the queue's row, then creates and
   * attaches its partition: two processes starting at once on a new database (app servers and a
   * worker brought up together) can deadlock there, and PostgreSQL aborts one of them, which
   * ended that server's start. The aborted one tries again; by then the queue exists, and an
   * existing queue is left as it is.
   */
  private async createQueue() {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(QUEUE, {
          name: QUEUE,
          retryLimit: 0,
          expireInSeconds: this.opts.maxRunSeconds,
        });
        return;
      } catch (err) {
        if (attempt >= CREATE_ATTEMPTS || !LOST_RACE.has((err as { code?: string }).code ?? ''))
          throw err;
        await new Promise((r) => setTimeout(r, 20 * attempt + Math.random() * 50));
      }
    }
  }

  async enqueue(jobId: string) {
    await this.start();
    const id = await this.boss.send(QUEUE, { jobId });
    // A consumer of this process waiting for its next poll takes it now.
    this.wakeConsumers();
    return id ?? undefined;
  }

  /**
   * Our own loop over pg-boss's fetch/complete rather than `boss.work`: pg-boss's worker fires
   * `complete` without awaiting it, so a database error at that moment (PostgreSQL restarting, a
   * process closing) became an unhandled rejection, which ends a Node process.
   */
  async consume(concurrency: number, run: (jobId: string) => Promise<void>) {
    await this.start();
    this.taking = true;
    for (let i = 0; i < concurrency; i++) this.loops.push(this.consumeLoop(run));
  }

  private async consumeLoop(run: (jobId: string) => Promise<void>) {
    while (this.taking) {
      const [message] = await this.boss
        .fetch<{ jobId: string }>(QUEUE, { batchSize: 1 })
        .catch(() => []);
      if (!message) {
        await this.nextPoll();
        continue;
      }
      // The job's row records how it ended; the message only has to leave the queue.
      await run(message.data.jobId).catch(() => undefined);
      await this.boss.complete(QUEUE, message.id).catch(() => undefined);
    }
  }

  private nextPoll(): Promise<void> {
    const { signal } = this.wake;
    return new Promise((resolve) => {
      // Whichever comes first takes the other away: the wake signal lives until the next wake,
      // and a listener left on it by every quiet poll would pile up (two a second, per consumer).
      const woken = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(
        () => (signal.removeEventListener('abort', woken), resolve()),
        POLL_MS,
      );
      signal.addEventListener('abort', woken, { once: true });
    });
  }

  private wakeConsumers() {
    this.wake.abort();
    this.wake = new AbortController();
  }

  async stopTaking() {
    this.taking = false;
    this.wakeConsumers();
  }

  async isPending(queueId: string) {
    await this.start();
    const job = await this.boss.getJobById(QUEUE, queueId);
    return job !== null && ['created', 'retry', 'active'].includes(job.state);
  }

  async close() {
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.stopTaking();
    // Running jobs are not waited for: their rows go stale and another process resumes them
    // (their loops end quietly: every call on the closed pool is caught).
    await this.boss.stop({ graceful: false, wait: true, close: true }).catch(() => {});
  }
}
