import type { WorkProgress } from '../ai';

/**
 * What each kind of job does. Each feature's `<name>.job.ts` registers its kinds, all listed in
 * src/job-kinds.ts (documents: summarize, translate...; analysis: accessibility, seo, site), so every
 * process that runs jobs — an app server or `npm run worker` — knows all of them.
 */
export interface PartCache {
  /** The output of a finished part (a model call) of this job, if a run before this one did it. */
  get(key: string): Promise<string | undefined>;
  put(key: string, output: string): Promise<void>;
}

export interface JobContext<Input = unknown> {
  jobId: string;
  /** The user, or null for an anonymous page analysis. */
  userId: number | null;
  /** Who the job counts for (turns, caps, the model's turns): the user id, or `ip:<address>`. */
  owner: string;
  input: Input;
  progress: WorkProgress;
  /** Aborted when the job is cancelled, taken over by another process, or this one stops. */
  signal: AbortSignal;
  parts: PartCache;
}

/** Runs a job; its answer is what the endpoint that created it answers (stored as the result). */
export type JobHandler<Input = unknown> = (ctx: JobContext<Input>) => Promise<unknown>;

/** How a job ended, as its kind is told (JobKindHooks.ended). */
export interface JobEnd<Input = unknown> {
  jobId: string;
  userId: number | null;
  input: Input;
  state: 'done' | 'failed' | 'cancelled';
}

export interface JobKindHooks<Input = unknown> {
  /**
   * Told once, after the job's final state is saved, by the process that saved it (the run that
   * ended it, or the cancel, queued or running). Never for a run that is tried again, handed back
   * or taken over: a handler's own catch cannot tell those from the end. A crash between the save
   * and this call skips it, so what it gives back stays taken (no limit is passed).
   */
  ended?(end: JobEnd<Input>): Promise<void>;
}

/** The columns of a job's row the kind's hooks need. */
export interface EndedJobRow {
  id: string;
  kind: string;
  user_id: number | null;
  input: string;
}

export class JobKinds {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly hooks = new Map<string, JobKindHooks>();

  register<Input>(kind: string, handler: JobHandler<Input>, hooks: JobKindHooks<Input> = {}) {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.handlers.set(kind, handler as JobHandler);
    this.hooks.set(kind, hooks as JobKindHooks);
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }

  /** Tells the job's kind its final state (see JobKindHooks.ended); the caller logs a failure. */
  async ended(job: EndedJobRow, state: JobEnd['state']): Promise<void> {
    const hook = this.hooks.get(job.kind)?.ended;
    if (!hook) return;
    await hook({
      jobId: job.id,
      userId: job.user_id,
      input: JSON.parse(job.input) as unknown,
      state,
    });
  }
}
