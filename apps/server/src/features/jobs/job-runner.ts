import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { isTransientDatabaseError } from '../../db/transient-error';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { HttpError } from '../../lib/http-error';
import { linkedController } from '../../lib/linked-signal';
import { isoAt, nowIso } from '../../lib/time';
import type { WorkProgress } from '../ai';
import type { JobBus } from './job-bus';
import { retryBookkeeping } from './bookkeeping';
import type { JobKinds, PartCache } from './job-kinds';
import type { Claim } from './job-turns.repo';
import { jobsRepo, type JobRow, type Lease } from './jobs.repo';

/**
 * Runs the jobs this process takes from the queue. A job is claimed (one process wins), runs
 * with a heartbeat that renews its lease, saves its progress and learns of a cancel, and ends
 * once as done or failed. Model calls it has finished are kept as parts, so a job taken over
 * after a crash does not run them again. Its bookkeeping (claim, row, end) is tried again until
 * the database takes it (bookkeeping.ts): a database fault never fails a job nor ends the process.
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
  claimNext(workerId: string, now: string): Promise<Claim | undefined>;
}

/** Tries of a job's work cut by a database fault: waits 1 s doubling to 30 s, ~1.5 min in all. */
const WORK_RETRY = { tries: 8, minMs: 1000, maxMs: 30_000 };

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
  /** Every runNext under way, from its claim to its job's end: stop() waits for them all. */
  private readonly inFlight = new Set<Promise<boolean>>();
  /** Aborted by stop(): no new claim, and bookkeeping retries give up. */
  private readonly stopSignal = new AbortController();

  constructor(private readonly deps: JobRunnerDeps) {
    // Every run may wait on it at once (bookkeeping retries during a database outage).
    setMaxListeners(0, this.stopSignal.signal);
  }

  private get stopping() {
    return this.stopSignal.signal.aborted;
  }

  /** Stops a job this process runs at once (a cancel arrived here). */
  abortLocal(jobId: string, reason: Error) {
    this.running.get(jobId)?.controller.abort(reason);
  }

  /**
   * Claims and runs the next job in turn between owners; answers whether one ran. Never throws: a
   * database fault is logged and the claim tried again (bookkeeping.ts) until it works or the
   * process stops.
   */
  async runNext(): Promise<boolean> {
    if (this.stopping) return false;
    const work = this.claimAndRun();
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  private async claimAndRun(): Promise<boolean> {
    const { workerId } = this.deps;
    const claimed = await this.bookkeeping('claiming the next job', () =>
      this.deps.claimNext(workerId, nowIso()),
    );
    if (!claimed.ok || !claimed.value) return false;
    const { jobId, lease } = claimed.value;
    if (this.stopping) {
      // The process began to stop while this claim was under way: the job goes back at once.
      await this.handBack(jobId, lease);
      return false;
    }
    // Registered in the same turn as the check above: stop() sees this run, or the claim saw stop.
    await this.execute(jobId, this.register(jobId, lease));
    return true;
  }

  private register(jobId: string, lease: Lease): Run {
    const run: Run = { lease, controller: new AbortController() };
    // A run of this job left from before a stall has lost its lease: it stops.
    this.running.get(jobId)?.controller.abort(new LeaseLost('the job was claimed again'));
    this.running.set(jobId, run);
    return run;
  }

  /** Runs a job this process has claimed, under its lease. */
  private async execute(jobId: string, run: Run): Promise<void> {
    const { db } = this.deps;
    const { lease, controller } = run;
    const progress = this.deps.newProgress();
    let saved: string | null = null;
    const stopNews = progress.onChange(() =>
      this.deps.bus.publish(jobId, { kind: 'progress', progress: progress.snapshot() }),
    );
    const beat = setInterval(() => void heartbeat(), this.deps.heartbeatMs);
    const heartbeat = async () => {
      const snapshot = progress.snapshot();
      const current = JSON.stringify(snapshot);
      // The time left moves between parts too (a call running longer than thought): followers
      // hear of it at each beat, not only when a part ends.
      if (current !== saved) this.deps.bus.publish(jobId, { kind: 'progress', progress: snapshot });
      // Bookkeeping: a power cut that rolled a heartbeat back would only make it look older.
      const state = await withUnsyncedCommit(db, this.deps.dialect, (trx) =>
        jobsRepo.heartbeat(trx, jobId, lease, nowIso(), current === saved ? null : current),
      ).catch(() => 'running' as const); // a database hiccup is not a lost lease
      saved = current;
      if (state === undefined) controller.abort(new LeaseLost('another process took the job'));
      else if (state === 'cancelled') controller.abort(new Error('cancelled'));
    };
    // The job's work as a whole: once its handler has ended (failed at its first failing part,
    // or done), any part of it still waiting or running at the model stops, and none starts.
    const work = linkedController(controller.signal);
    const parts = this.parts(jobId);
    let job: JobRow | undefined;
    try {
      job = await this.readJob(jobId);
      if (!job) return; // deleted meanwhile (its account went)
      const handler = this.deps.kinds.get(job.kind);
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const context = {
        jobId,
        userId: job.user_id,
        owner: job.owner,
        input: JSON.parse(job.input) as unknown,
        progress,
        signal: work.signal,
        parts,
      };
      const result = await this.withDatabaseRetries(jobId, controller.signal, () =>
        handler(context),
      ).finally(async () => {
        work.dispose();
        work.controller.abort(new Error('the job has ended'));
        // A part that finished as a sibling failed or the process stopped is still being saved:
        // the job is handed on only once it is, or the run that takes it over would redo it.
        await parts.settled();
      });
      controller.signal.throwIfAborted();
      await this.end(job, lease, { state: 'done', result: JSON.stringify(result ?? null) });
    } catch (err) {
      await this.settleFailure(jobId, job, lease, controller.signal, err);
    } finally {
      clearInterval(beat);
      stopNews();
      // Only this run's own entry: a newer run's cancel handle stays.
      if (this.running.get(jobId) === run) this.running.delete(jobId);
      this.deps.bus.publish(jobId, { kind: 'ended' });
    }
  }

  /**
   * Runs the job's work, again after a wait when it failed because the database could not serve
   * for a moment (restarting, busy, a cut connection): that is not the job's failure. Its
   * finished parts are kept, so a new try redoes only what was cut.
   */
  private async withDatabaseRetries<T>(jobId: string, signal: AbortSignal, work: () => Promise<T>) {
    for (let tries = 1; ; tries++) {
      try {
        return await work();
      } catch (err) {
        if (signal.aborted || !isTransientDatabaseError(err) || tries >= WORK_RETRY.tries)
          throw err;
        const waitMs = Math.min(WORK_RETRY.maxMs, WORK_RETRY.minMs * 2 ** (tries - 1));
        this.deps.log.warn(
          { err, jobId, tries, waitMs },
          'job: the database failed its work; trying again',
        );
        await sleep(waitMs, undefined, { signal }).catch(() => undefined);
        signal.throwIfAborted();
      }
    }
  }

  /** The claimed job's row; undefined when it is gone. Throws Shutdown when the process stops first. */
  private async readJob(jobId: string): Promise<JobRow | undefined> {
    const found = await this.bookkeeping(
      'reading the job',
      () => jobsRepo.find(this.deps.db, jobId),
      jobId,
    );
    if (!found.ok) throw new Shutdown('the server is stopping');
    return found.value;
  }

  /**
   * Stops taking jobs and stops every running one; each goes back to the queue for another
   * process (or the next start). A claim under way when this is called is handed back too.
   */
  async stop(): Promise<void> {
    this.stopSignal.abort();
    for (const run of this.running.values())
      run.controller.abort(new Shutdown('the server is stopping'));
    // Each run ends quickly once aborted (model calls stop at once), and hands its job back.
    await Promise.allSettled([...this.inFlight]);
  }

  private async settleFailure(
    jobId: string,
    job: JobRow | undefined,
    lease: Lease,
    signal: AbortSignal,
    err: unknown,
  ) {
    const reason: unknown = signal.aborted ? signal.reason : err;
    if (reason instanceof LeaseLost) return;
    if (reason instanceof Shutdown) return this.handBack(jobId, lease);
    if (signal.aborted) {
      // Cancelled: the row says so already (its kind was told by the cancel); the input can go.
      await this.deps.onEnded(jobId).catch(() => {});
      return;
    }
    const status = err instanceof HttpError ? err.statusCode : 500;
    if (status >= 500) this.deps.log.error({ err, jobId, kind: job?.kind }, 'job failed');
    const error = err instanceof HttpError ? err.message : ERROR_MESSAGES.internal;
    const outcome = { state: 'failed', error: JSON.stringify({ error, status }) } as const;
    // Always read by now: reading fails only when the process stops (handed back above).
    if (job) await this.end(job, lease, outcome);
  }

  /** Ends the job with this run's outcome, if the run still holds the lease; tells its kind. */
  private async end(
    job: JobRow,
    lease: Lease,
    outcome: { state: 'done' | 'failed'; result?: string; error?: string },
  ) {
    const jobId = job.id;
    const now = Date.now();
    const ended = await this.bookkeeping(
      `saving the job's end (${outcome.state})`,
      () =>
        jobsRepo.finish(this.deps.db, jobId, lease, {
          ...outcome,
          now: isoAt(now),
          expiresAt: isoAt(now + this.deps.keepMs),
        }),
      jobId,
    );
    // Stopping before the end could be saved: the job runs again elsewhere (its parts are kept).
    if (!ended.ok) return this.handBack(jobId, lease);
    // A run that lost its lease (or whose job was cancelled meanwhile) leaves the input, and
    // telling the kind, to whoever ended the job.
    if (!ended.value) return;
    await this.deps.onEnded(jobId).catch(() => {});
    await this.deps.kinds.ended(job, outcome.state).catch((err: unknown) => {
      this.deps.log.warn({ err, jobId }, "job: its kind's end could not be told");
    });
  }

  /** Gives a job back to the queue (this process stops); if that fails, its lease goes stale. */
  private async handBack(jobId: string, lease: Lease) {
    await this.deps.requeue(jobId, lease).catch((err: unknown) => {
      this.deps.log.warn(
        { err, jobId },
        'job: could not hand back; it resumes once its lease is stale',
      );
    });
  }

  private bookkeeping<T>(step: string, attempt: () => Promise<T>, jobId?: string) {
    return retryBookkeeping(step, attempt, {
      log: this.deps.log,
      signal: this.stopSignal.signal,
      jobId,
    });
  }

  /**
   * The job's finished parts. They only save model time: a part that cannot be read or saved (a
   * database fault) is asked of the model again, it never fails the job.
   */
  private parts(jobId: string): PartCache & { settled(): Promise<void> } {
    const { db, dialect, log } = this.deps;
    const saving = new Set<Promise<void>>();
    return {
      settled: async () => {
        await Promise.all(saving);
      },
      get: (key) =>
        jobsRepo.getPart(db, jobId, key).catch((err: unknown) => {
          log.warn({ err, jobId }, 'job: a finished part could not be read; it is done again');
          return undefined;
        }),
      // A finished call kept for a resumed run: lost in a power cut, it is only asked again. Its
      // commit skips the fsync, which on a loaded machine held the event loop for tens of ms.
      put: (key, output) => {
        const save = withUnsyncedCommit(db, dialect, (trx) =>
          jobsRepo.putPart(trx, jobId, key, output),
        )
          .catch((err: unknown) =>
            log.warn({ err, jobId }, 'job: a finished part could not be kept'),
          )
          .finally(() => saving.delete(save));
        saving.add(save);
        return save;
      },
    };
  }
}
