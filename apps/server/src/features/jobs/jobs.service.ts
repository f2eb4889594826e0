import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Job, JobKind, ProgressEvent } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { notFound, tooManyRequests } from '../../lib/http-error';
import { isoAt, nowIso } from '../../lib/time';
import type { Storage } from '../../storage/storage';
import type { WorkProgress } from '../ai';
import { JobBus } from './job-bus';
import { JobKinds, type JobHandler, type JobKindHooks } from './job-kinds';
import { inputKey, sweepJobObjects } from './job-objects';
import { JobRunner } from './job-runner';
import { hasEnded, watchJob } from './job-watch';
import { jobTurnsRepo } from './job-turns.repo';
import { jobsRepo, type JobListPosition, type JobRow, type JobSummaryRow } from './jobs.repo';
import type { JobQueue } from './queue/job-queue';

/**
 * Jobs: long AI work that outlives its request. Created by the endpoints of the document actions
 * and page analyses, run by whichever process takes them from the queue, followed by whoever
 * waits for them, kept 24 h once ended.
 */
export interface JobsOptions {
  db: Db;
  dialect: Dialect;
  storage: Storage;
  queue: JobQueue;
  log: FastifyBaseLogger;
  newProgress(): WorkProgress;
  /** JOB_WORKER: whether this process runs jobs. */
  runsJobs: boolean;
  concurrency: number;
  /** JOBS_PER_USER: jobs of one owner running at once, across every process. */
  perOwner: number;
  /** JOBS_QUEUED_PER_USER: jobs of one owner waiting; one more is refused with a 429. */
  maxQueuedPerOwner: number;
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
  /** The client's address: owns an anonymous job (its turns and caps). */
  address?: string;
  /** The session that asks (`request.authUser.sessionId`): its logout cancels the job. */
  sessionId?: string | null;
  about: JobAbout;
  /** The kind's own input (a file reference, fields). */
  input: Record<string, unknown>;
  /** An uploaded document the job reads: kept in storage until the job ends. */
  upload?: Buffer;
}

export const KEEP_MS = 24 * 3600_000;
/** How often job objects without a row are swept (and once at start). */
const OBJECT_SWEEP_MS = 3600_000;
/** A queue message that names no job: "look for the next job in turn". */
const WAKE = 'next';

/** Who a job counts for: its user, or the client's address for an anonymous page analysis. */
export const jobOwner = (userId: number | null, address?: string) =>
  userId !== null ? String(userId) : `ip:${address ?? 'unknown'}`;

export class Jobs {
  readonly kinds = new JobKinds();
  readonly bus = new JobBus();
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly runner: JobRunner;
  private maintenance?: NodeJS.Timeout;
  private objectSweep?: NodeJS.Timeout;
  /** Job ids whose objects had no row at the last sweep (removed if still so at the next). */
  private readonly sweepSuspects = new Set<string>();

  constructor(private readonly opts: JobsOptions) {
    this.runner = new JobRunner({
      db: opts.db,
      dialect: opts.dialect,
      kinds: this.kinds,
      bus: this.bus,
      log: opts.log,
      workerId: this.workerId,
      heartbeatMs: Math.max(100, Math.floor(opts.staleMs / 10)),
      keepMs: KEEP_MS,
      newProgress: opts.newProgress,
      onEnded: (id) => this.deleteInput(id),
      requeue: async (id, lease) => {
        await jobsRepo.release(opts.db, id, lease, nowIso());
        if (!opts.singleProcess) await this.send(id);
      },
      claimNext: (worker, now) =>
        jobTurnsRepo.claimNext(opts.db, opts.dialect, worker, now, opts.perOwner),
    });
  }

  register<Input>(kind: JobKind, handler: JobHandler<Input>, hooks?: JobKindHooks<Input>) {
    this.kinds.register(kind, handler, hooks);
  }

  /** Starts running jobs (when this process does) and the periodic upkeep. */
  async start() {
    if (this.opts.runsJobs) {
      if (this.opts.singleProcess) {
        for (const id of await jobsRepo.requeueAllRunning(this.opts.db))
          await this.opts.queue.enqueue(id);
      }
      // A queue message says "a job is ready", not which: the next in turn between owners runs.
      await this.opts.queue.consume(this.opts.concurrency, () => this.runNext());
    }
    const every = Math.max(250, Math.floor(this.opts.staleMs / 2));
    this.maintenance = setInterval(() => void this.maintain().catch(() => {}), every);
    const sweep = () => void this.sweepObjects();
    this.objectSweep = setInterval(sweep, OBJECT_SWEEP_MS);
    this.objectSweep.unref();
    sweep();
  }

  /** Removes job objects without a row (issue 26); never throws. */
  async sweepObjects(): Promise<number> {
    try {
      const removed = await sweepJobObjects(this.opts, this.sweepSuspects);
      if (removed > 0) this.opts.log.info({ removed }, 'job objects without a job removed');
      return removed;
    } catch (err) {
      this.opts.log.warn({ err }, 'job objects sweep failed');
      return 0;
    }
  }

  /** Cancels every job of a user that has not ended (New Topic, account deletion). */
  async cancelAllOf(userId: number): Promise<void> {
    for (const row of await jobsRepo.activeOfUser(this.opts.db, userId)) await this.cancel(row);
  }

  /**
   * Cancels the jobs one session started that have not ended (its logout, before the session
   * ends): the same user's work on another device goes on.
   */
  async cancelSessionJobs(userId: number, sessionId: string): Promise<void> {
    for (const row of await jobsRepo.activeOfSession(this.opts.db, userId, sessionId))
      await this.cancel(row);
  }

  async close() {
    clearInterval(this.maintenance);
    clearInterval(this.objectSweep);
    await this.opts.queue.stopTaking();
    await this.runner.stop();
    await this.opts.queue.close();
  }

  /**
   * Queues a job, or refuses it with a 429 when its owner already has JOBS_QUEUED_PER_USER
   * waiting (then nothing is stored: neither the row nor the upload).
   */
  async create(job: NewJob): Promise<string> {
    const { db, dialect, maxQueuedPerOwner } = this.opts;
    const id = randomUUID();
    const owner = jobOwner(job.userId, job.address);
    // The input before the row: a queued row may be claimed at once by any process. The object
    // sweep gives an object without a row until its next round (job-objects.ts).
    if (job.upload) await this.opts.storage.put(inputKey(id), Readable.from(job.upload));
    const row = {
      id,
      user_id: job.userId,
      owner,
      session_id: job.sessionId ?? null,
      kind: job.kind,
      input: JSON.stringify({ ...job.input, about: job.about }),
      created_at: nowIso(),
    };
    const outcome = await jobTurnsRepo
      .insertWithinCap(db, dialect, row, maxQueuedPerOwner)
      .catch(async (err: unknown) => {
        await this.deleteInput(id);
        throw err;
      });
    if (!outcome.inserted) {
      await this.deleteInput(id);
      throw tooManyRequests(
        `You have ${outcome.waiting} jobs waiting to start, the most one user may have ` +
          `(JOBS_QUEUED_PER_USER). Wait for some to finish, or cancel some, and try again.`,
        5,
      );
    }
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

  /** A page of a user's jobs, newest first, without results; `more`: another page follows. */
  async list(
    userId: number,
    limit: number,
    after?: JobListPosition,
  ): Promise<{ rows: JobSummaryRow[]; more: boolean }> {
    const rows = await jobsRepo.listByUser(this.opts.db, userId, limit + 1, after);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
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
      // Told here, where the cancel was saved: a queued job has no run to tell it.
      await this.kinds.ended(row, 'cancelled').catch((err: unknown) => {
        this.opts.log.warn({ err, jobId: row.id }, "job: its kind's end could not be told");
      });
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
    await jobTurnsRepo.forgetIdleOwners(db);
  }

  /** Runs the next job in turn; once it ends, another may start (one its owner's cap held back). */
  private async runNext() {
    if (await this.runner.runNext()) await this.opts.queue.enqueue(WAKE).catch(() => {});
  }

  private async send(id: string) {
    const queueId = await this.opts.queue.enqueue(id);
    if (queueId) await jobsRepo.setQueueId(this.opts.db, id, queueId);
  }

  private async deleteInput(id: string) {
    await this.opts.storage.delete(inputKey(id)).catch(() => {});
  }
}
