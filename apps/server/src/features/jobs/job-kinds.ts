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

export class JobKinds {
  private readonly handlers = new Map<string, JobHandler>();

  register<Input>(kind: string, handler: JobHandler<Input>) {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
    this.handlers.set(kind, handler as JobHandler);
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }
}
