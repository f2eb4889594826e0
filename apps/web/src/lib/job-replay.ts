import type { Job } from '@inkwell/contract';
import { ApiError, type Parser } from './api-client';
import { messageForStatus } from './api-messages';
import { startWorkStep, type ConversationMessage } from './conversation';
import { followJob } from './progress-request';
import { settleWork, type NewMessage, type WorkOutcomeMessages } from './settle-work';

/**
 * One of the user's jobs shown again in the conversation (after a reload, on another device):
 * the messages it had posted, in their place, and for a job still running, `follow` runs its
 * step again with progress and Cancel until its outcome arrives.
 */
export interface JobReplay {
  messages: ConversationMessage[];
  follow?: () => Promise<void>;
}

/** How a feature's job looks in the conversation: the same texts as when it was started. */
export interface JobShape<R, T> {
  /** The step's text ('Starting Summarize for a.pdf...'). */
  stepText: string;
  /** The step's kind and label, as startWorkStep takes them. */
  step?: { type?: 'system' | 'ai'; label?: string; replacedByOutcome?: boolean };
  /** Messages before the step (a question about a file: the question). */
  before?: NewMessage[];
  /** The job's result as the endpoint answers it… */
  schema: Parser<R>;
  /** The job's partial result while it runs, for its step (a question's answer so far). */
  onPartial?: (stepId: string) => (partial: unknown) => void;
  /** …and as the feature's outcome messages take it. */
  toOutcome(result: R): T;
  messages: WorkOutcomeMessages<T>;
}

/** A replay of `job` by its feature's shape (a pure function of the job, but for `follow`). */
export function replayJob<R, T>(job: Job, shape: JobShape<R, T>): JobReplay {
  const stepId = `job-${job.id}`;
  const withIds = (messages: NewMessage[], prefix: string) =>
    messages.map((m, i) => ({ ...m, id: `${stepId}-${prefix}${i}` }));
  const before = withIds(shape.before ?? [], 'b');
  const step: ConversationMessage = {
    id: stepId,
    type: shape.step?.type ?? 'system',
    text: shape.stepText,
  };
  if (job.state === 'queued' || job.state === 'running') {
    return {
      messages: [...before, { ...step, isLoading: true }],
      follow: () => {
        const running = startWorkStep(shape.stepText, {
          ...shape.step,
          jobId: job.id,
          messageId: stepId,
        });
        if (job.progress) running.onProgress(job.progress);
        const onPartial = shape.onPartial?.(stepId);
        if (job.progress?.partial !== undefined) onPartial?.(job.progress.partial);
        return settleWork(
          running,
          async () =>
            shape.toOutcome(await followJob(job.id, shape.schema, { ...running, onPartial })),
          shape.messages,
        );
      },
    };
  }
  const outcome = withIds(endedOutcome(job, shape), 'o');
  if (shape.step?.replacedByOutcome && outcome[0]) {
    return { messages: [...before, { ...outcome[0], id: stepId }, ...outcome.slice(1)] };
  }
  return { messages: [...before, step, ...outcome] };
}

function endedOutcome<R, T>(job: Job, shape: JobShape<R, T>): NewMessage[] {
  if (job.state === 'cancelled') return shape.messages.cancelled();
  if (job.state === 'done') {
    let outcome: T;
    try {
      outcome = shape.toOutcome(shape.schema.parse(job.result));
    } catch {
      return shape.messages.failed(new ApiError(messageForStatus(0), 0));
    }
    return shape.messages.done(outcome);
  }
  const status = job.error?.status ?? 500;
  return shape.messages.failed(new ApiError(messageForStatus(status), status, job.error?.error));
}
