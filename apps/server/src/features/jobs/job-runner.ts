import type { FastifyBaseLogger } from 'fastify';
import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { HttpError } from '../../lib/http-error';
import { isoAt, nowIso } from '../../lib/time';
import type { WorkProgress } from '../ai/work-progress';
import type { JobBus } from './job-bus';
import type { JobKinds, PartCache } from './job-kinds';
import { jobsRepo, type Lease } from './jobs.repo';

/**
 * Runs the jobs this process takes from the queue. A job is claimed (one process wins), runs
 * with a heartbeat that renews its lease, saves its progress and learns of a cancel, and ends
 * once as done or failed. Model calls it has finished are kept as parts, so a job taken over
 * after a crash does not run them again.
 */
export interface JobRunnerDeps {
  db: Db;
  dialect: Dialect;
  kinds: JobKinds;
  bus: JobBus;
  log: FastifyBaseLogger;
  /** This process, as written in the rows it holds. */
  workerId: string;
  heartbeatMs: number;
  /** How long a finished job and its result are kept. */
  keepMs: number;
  newProgress(): WorkProgress;
  /** Called when a job ends, whatever the outcome (its uploaded input is deleted). */
  onEnded(jobId: string): Promise<void>;
  /** Puts a job this process had to give up back into the queue (if its lease is still this one). */
  requeue(jobId: string, lease: Lease): Promise<void>;
  /** Claims the next job in turn between owners (job-turns.repo.ts); undefined when none may start. */
  claimNext(workerId: string, now: string): Promise<string | undefined>;
}

class Shutdown extends Error {}
class LeaseLost extends Error {}

/** One run of a job: its claim, and how to stop it. */
interface Run {
  lease: Lease;
  controller: AbortController;
}

export class JobRunner {
  /** The current run of each job here (after a stall, a newer run of the same job replaces it). */
  private readonly running = new Map<string, Run>();
  private stopping = false;

  constructor(private readonly deps: JobRunnerDeps) {}

  /** Stops a job this process runs at once (a cancel arrived here). */
  abortLocal(jobId: string, reason: Error) {
    this.running.get(jobId)?.controller.abort(reason);
  }

  /** Runs a job if this process can claim it; never throws. */
  async run(jobId: string): Promise<void> {
    if (this.stopping) return;
    const { db, workerId } = this.deps;
    const lease = await jobsRepo.claim(db, jobId, workerId, nowIso());
    if (!lease) return;
    await this.execute(jobId, lease);
  }

  /**
   * Claims and runs the next job in turn between owners; answers whether there was one. Never
   * throws (a database error means no job this time; the next wake-up tries again).
   */
  async runNext(): Promise<boolean> {
    if (this.stopping) return false;
    const jobId = await this.deps.claimNext(this.deps.workerId, nowIso()).catch((err: unknown) => {
      this.deps.log.error({ err }, 'job: could not claim the next job');
      return undefined;
    });
    if (!jobId) return false;
    // The claim just set this worker and a new attempt number: that pair is this run's lease.
    const claimed = await jobsRepo.find(this.deps.db, jobId);
    if (!claimed || claimed.worker !== this.deps.workerId) return true;
    await this.execute(jobId, { worker: this.deps.workerId, attempt: Number(claimed.attempts) });
    return true;
  }

  /** Runs a job this process has claimed, under its lease. */
  private async execute(jobId: string, lease: Lease): Promise<void> {
    const job = await jobsRepo.find(this.deps.db, jobId);
    if (!job) return;
    const { db } = this.deps;
    const controller = new AbortController();
    const run: Run = { lease, controller };
    // A run of this job left from before a stall has lost its lease: it stops.
    this.running.get(jobId)?.controller.abort(new LeaseLost('the job was claimed again'));
    this.running.set(jobId, run);
    const progress = this.deps.newProgress();
    let saved: string | null = null;
    const stopNews = progress.onChange(() =>
      this.deps.bus.publish(jobId, { kind: 'progress', progress: progress.snapshot() }),
    );
    const beat = setInterval(() => void heartbeat(), this.deps.heartbeatMs);
    const heartbeat = async () => {
      const current = JSON.stringify(progress.snapshot());
      // Bookkeeping: a power cut that rolled a heartbeat back would only make it look older.
      const state = await withUnsyncedCommit(db, this.deps.dialect, (trx) =>
        jobsRepo.heartbeat(trx, jobId, lease, nowIso(), current === saved ? null : current),
      ).catch(() => 'running' as const); // a database hiccup is not a lost lease
      saved = current;
      if (state === undefined) controller.abort(new LeaseLost('another process took the job'));
      else if (state === 'cancelled') controller.abort(new Error('cancelled'));
    };
    try {
      const handler = this.deps.kinds.get(job.kind);
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const result = await handler({
        jobId,
        userId: job.user_id,
        owner: job.owner,
        input: JSON.parse(job.input) as unknown,
        progress,
        signal: controller.signal,
        parts: this.parts(jobId),
      });
      controller.signal.throwIfAborted();
      await this.end(jobId, lease, { state: 'done', result: JSON.stringify(result ?? null) });
    } catch (err) {
      await this.settleFailure(jobId, lease, job.kind, controller.signal, err);
    } finally {
      clearInterval(beat);
      stopNews();
      // Only this run's own entry: a newer run's cancel handle stays.
      if (this.running.get(jobId) === run) this.running.delete(jobId);
      this.deps.bus.publish(jobId, { kind: 'ended' });
    }
  }

  /** Stops every running job; they go back to the queue for another process (or the next start). */
  async stop(): Promise<void> {
    this.stopping = true;
    const runs = [...this.running.entries()];
    for (const [, run] of runs) run.controller.abort(new Shutdown('the server is stopping'));
    // Each run ends quickly once aborted (model calls stop at once).
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 20));
    for (const [id, run] of runs) await this.deps.requeue(id, run.lease).catch(() => {});
  }

  private async settleFailure(
    jobId: string,
    lease: Lease,
    kind: string,
    signal: AbortSignal,
    err: unknown,
  ) {
    const reason: unknown = signal.aborted ? signal.reason : undefined;
    if (reason instanceof LeaseLost || reason instanceof Shutdown) return;
    if (signal.aborted) {
      // Cancelled: the row says so already; the input can go.
      await this.deps.onEnded(jobId).catch(() => {});
      return;
    }
    const status = err instanceof HttpError ? err.statusCode : 500;
    if (status >= 500) this.deps.log.error({ err, jobId, kind }, 'job failed');
    const error = err instanceof HttpError ? err.message : ERROR_MESSAGES.internal;
    await this.end(jobId, lease, { state: 'failed', error: JSON.stringify({ error, status }) });
  }

  /** Ends the job with this run's outcome, if the run still holds the lease. */
  private async end(
    jobId: string,
    lease: Lease,
    outcome: { state: 'done' | 'failed'; result?: string; error?: string },
  ) {
    const now = Date.now();
    const ended = await jobsRepo.finish(this.deps.db, jobId, lease, {
      ...outcome,
      now: isoAt(now),
      expiresAt: isoAt(now + this.deps.keepMs),
    });
    // A run that lost its lease leaves the input to the run that holds it.
    if (ended) await this.deps.onEnded(jobId).catch(() => {});
  }

  private parts(jobId: string): PartCache {
    const { db, dialect } = this.deps;
    return {
      get: (key) => jobsRepo.getPart(db, jobId, key),
      // A finished call kept for a resumed run: lost in a power cut, it is only asked again. Its
      // commit skips the fsync, which on a loaded machine held the event loop for tens of ms.
      put: (key, output) =>
        withUnsyncedCommit(db, dialect, (trx) => jobsRepo.putPart(trx, jobId, key, output)),
    };
  }
}
