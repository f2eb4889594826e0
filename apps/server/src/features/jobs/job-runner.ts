import type { FastifyBaseLogger } from 'fastify';
import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { isoAt, nowIso } from '../../lib/time';
import type { WorkProgress } from '../ai/work-progress';
import type { JobBus } from './job-bus';
import type { JobKinds, PartCache } from './job-kinds';
import { jobsRepo } from './jobs.repo';

/**
 * Runs the jobs this process takes from the queue. A job is claimed (one process wins), runs
 * with a heartbeat that renews its lease, saves its progress and learns of a cancel, and ends
 * once as done or failed. Model calls it has finished are kept as parts, so a job taken over
 * after a crash does not run them again.
 */
export interface JobRunnerDeps {
  db: Db;
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
  /** Puts a job this process had to give up back into the queue. */
  requeue(jobId: string): Promise<void>;
}

class Shutdown extends Error {}
class LeaseLost extends Error {}

export class JobRunner {
  private readonly running = new Map<string, AbortController>();
  private stopping = false;

  constructor(private readonly deps: JobRunnerDeps) {}

  /** Stops a job this process runs at once (a cancel arrived here). */
  abortLocal(jobId: string, reason: Error) {
    this.running.get(jobId)?.abort(reason);
  }

  /** Runs a job if this process can claim it; never throws. */
  async run(jobId: string): Promise<void> {
    if (this.stopping) return;
    const { db, workerId } = this.deps;
    if (!(await jobsRepo.claim(db, jobId, workerId, nowIso()))) return;
    const job = await jobsRepo.find(db, jobId);
    if (!job) return;
    const controller = new AbortController();
    this.running.set(jobId, controller);
    const progress = this.deps.newProgress();
    let saved: string | null = null;
    const stopNews = progress.onChange(() =>
      this.deps.bus.publish(jobId, { kind: 'progress', progress: progress.snapshot() }),
    );
    const beat = setInterval(() => void heartbeat(), this.deps.heartbeatMs);
    const heartbeat = async () => {
      const current = JSON.stringify(progress.snapshot());
      const state = await jobsRepo
        .heartbeat(db, jobId, workerId, nowIso(), current === saved ? null : current)
        .catch(() => 'running' as const); // a database hiccup is not a lost lease
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
        input: JSON.parse(job.input) as unknown,
        progress,
        signal: controller.signal,
        parts: this.parts(jobId),
      });
      controller.signal.throwIfAborted();
      await this.end(jobId, { state: 'done', result: JSON.stringify(result ?? null) });
    } catch (err) {
      await this.settleFailure(jobId, job.kind, controller.signal, err);
    } finally {
      clearInterval(beat);
      stopNews();
      this.running.delete(jobId);
      this.deps.bus.publish(jobId, { kind: 'ended' });
    }
  }

  /** Stops every running job; they go back to the queue for another process (or the next start). */
  async stop(): Promise<void> {
    this.stopping = true;
    const ids = [...this.running.keys()];
    for (const c of this.running.values()) c.abort(new Shutdown('the server is stopping'));
    // Each run ends quickly once aborted (model calls stop at once).
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 20));
    for (const id of ids) await this.deps.requeue(id).catch(() => {});
  }

  private async settleFailure(jobId: string, kind: string, signal: AbortSignal, err: unknown) {
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
    await this.end(jobId, { state: 'failed', error: JSON.stringify({ error, status }) });
  }

  private async end(
    jobId: string,
    outcome: { state: 'done' | 'failed'; result?: string; error?: string },
  ) {
    const now = Date.now();
    await jobsRepo.finish(this.deps.db, jobId, this.deps.workerId, {
      ...outcome,
      now: isoAt(now),
      expiresAt: isoAt(now + this.deps.keepMs),
    });
    await this.deps.onEnded(jobId).catch(() => {});
  }

  private parts(jobId: string): PartCache {
    const { db } = this.deps;
    return {
      get: (key) => jobsRepo.getPart(db, jobId, key),
      put: (key, output) => jobsRepo.putPart(db, jobId, key, output),
    };
  }
}
