import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Job, JobKind, ProgressEvent } from '@inkwell/contract';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/http-error';
import { isoAt, nowIso } from '../../lib/time';
import type { Storage } from '../../storage/storage';
import type { WorkProgress } from '../ai/work-progress';
import { JobBus } from './job-bus';
import { JobKinds, type JobHandler } from './job-kinds';
import { JobRunner } from './job-runner';
import { hasEnded, watchJob } from './job-watch';
import { jobsRepo, type JobRow } from './jobs.repo';
import type { JobQueue } from './queue/job-queue';

/**
 * Jobs: long AI work that outlives its request. Created by the endpoints of the document actions
 * and page analyses, run by whichever process takes them from the queue, followed by whoever
 * waits for them, kept 24 h once ended.
 */
export interface JobsOptions {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  log: FastifyBaseLogger;
  newProgress(): WorkProgress;
  /** JOB_WORKER: whether this process runs jobs. */
  runsJobs: boolean;
  concurrency: number;
  /** A running job whose heartbeat is older than this is taken over (JOB_STALE_MS). */
  staleMs: number;
  /** Database polls of jobs that run in another process. */
  pollMs: number;
  /** SQLite: one process, so whatever it left running when it stopped is resumed at start. */
  singleProcess: boolean;
}

/** What a job works on, shown again after a reload (contract jobs.ts `about`). */
export type JobAbout = Job['about'];

export interface NewJob {
  kind: JobKind;
  userId: number | null;
  about: JobAbout;
  /** The kind's own input (a file reference, fields). */
  input: Record<string, unknown>;
  /** An uploaded document the job reads: kept in storage until the job ends. */
  upload?: Buffer;
}

export const KEEP_MS = 24 * 3600_000;
const inputKey = (jobId: string) => `jobs/${jobId}/input`;

export class Jobs {
  readonly kinds = new JobKinds();
  readonly bus = new JobBus();
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly runner: JobRunner;
  private maintenance?: NodeJS.Timeout;

  constructor(private readonly opts: JobsOptions) {
    this.runner = new JobRunner({
      db: opts.db,
      kinds: this.kinds,
      bus: this.bus,
      log: opts.log,
      workerId: this.workerId,
      heartbeatMs: Math.max(100, Math.floor(opts.staleMs / 10)),
      keepMs: KEEP_MS,
      newProgress: opts.newProgress,
      onEnded: (id) => this.deleteInput(id),
      requeue: async (id) => {
        await jobsRepo.release(opts.db, id, this.workerId, nowIso());
        if (!opts.singleProcess) await this.send(id);
      },
    });
  }

  register<Input>(kind: JobKind, handler: JobHandler<Input>) {
    this.kinds.register(kind, handler);
  }

  /** Starts running jobs (when this process does) and the periodic upkeep. */
  async start() {
    if (this.opts.runsJobs) {
      if (this.opts.singleProcess) {
        for (const id of await jobsRepo.requeueAllRunning(this.opts.db))
          await this.opts.queue.enqueue(id);
      }
      await this.opts.queue.consume(this.opts.concurrency, (id) => this.runner.run(id));
    }
    const every = Math.max(250, Math.floor(this.opts.staleMs / 2));
    this.maintenance = setInterval(() => void this.maintain().catch(() => {}), every);
  }

  async close() {
    clearInterval(this.maintenance);
    await this.opts.queue.stopTaking();
    await this.runner.stop();
    await this.opts.queue.close();
  }

  async create(job: NewJob): Promise<string> {
    const id = randomUUID();
    if (job.upload) await this.opts.storage.put(inputKey(id), Readable.from(job.upload));
    await jobsRepo.insert(this.opts.db, {
      id,
      user_id: job.userId,
      kind: job.kind,
      input: JSON.stringify({ ...job.input, about: job.about }),
      created_at: nowIso(),
    });
    await this.send(id);
    return id;
  }

  /** The uploaded document of a job. */
  readUpload(jobId: string) {
    return this.opts.storage.get(inputKey(jobId));
  }

  /** A job the asker may see: their own, or an anonymous one (reached by its id). */
  async findFor(userId: number | null, id: string): Promise<JobRow> {
    const row = await jobsRepo.find(this.opts.db, id);
    if (!row || (row.user_id !== null && row.user_id !== userId)) throw notFound('Job not found');
    return row;
  }

  list(userId: number): Promise<JobRow[]> {
    return jobsRepo.listByUser(this.opts.db, userId, 50);
  }

  watch(id: string, onProgress: (p: ProgressEvent) => void, signal?: AbortSignal) {
    return watchJob(
      { db: this.opts.db, bus: this.bus, pollMs: this.opts.pollMs },
      id,
      onProgress,
      signal,
    );
  }

  /** Cancels a job that has not ended: its remaining model calls stop, here or in its process. */
  async cancel(row: JobRow): Promise<JobRow> {
    const now = Date.now();
    if (
      !hasEnded(row) &&
      (await jobsRepo.cancel(this.opts.db, row.id, isoAt(now), isoAt(now + KEEP_MS)))
    ) {
      this.runner.abortLocal(row.id, new Error('cancelled'));
      this.bus.publish(row.id, { kind: 'ended' });
      await this.deleteInput(row.id);
    }
    return (await jobsRepo.find(this.opts.db, row.id))!;
  }

  /**
   * Upkeep, in every process: jobs whose worker went silent go back in the queue (another process
   * resumes them), queued jobs whose message never went out are sent, expired jobs are deleted.
   */
  async maintain() {
    const { db } = this.opts;
    const now = Date.now();
    const staleBefore = isoAt(now - this.opts.staleMs);
    for (const id of await jobsRepo.requeueStale(db, staleBefore, isoAt(now))) {
      this.opts.log.warn({ jobId: id }, 'job: its worker went silent; queued again');
      await this.send(id);
    }
    if (!this.opts.singleProcess) {
      // A queued job whose message is gone (never sent, or taken by a process that was stopping)
      // gets a new one; a duplicate is harmless, only one process can claim the job.
      for (const job of await jobsRepo.queuedSince(db, staleBefore)) {
        if (!job.queue_id || !(await this.opts.queue.isPending(job.queue_id)))
          await this.send(job.id);
      }
    }
    for (const id of await jobsRepo.deleteExpired(db, isoAt(now))) await this.deleteInput(id);
  }

  private async send(id: string) {
    const queueId = await this.opts.queue.enqueue(id);
    if (queueId) await jobsRepo.setQueueId(this.opts.db, id, queueId);
  }

  private async deleteInput(id: string) {
    await this.opts.storage.delete(inputKey(id)).catch(() => {});
  }
}
