import { ApiError } from './api-client';
import { conversation, type WorkStep } from './conversation';

/** What a feature posts once its long work has ended, one way or the other. */
export interface WorkOutcomeMessages<T> {
  done(result: T): void;
  cancelled(): void;
  failed(err: unknown): void;
}

/**
 * Waits for long work and ends its step, then lets the feature post the outcome, unless a New
 * Topic or logout emptied the conversation meanwhile. When the page got no answer (it unloads,
 * the network dropped) the job goes on on the server, so it stays remembered for the next load.
 */
export async function settleWork<T>(
  step: WorkStep,
  outcome: () => Promise<T>,
  messages: WorkOutcomeMessages<T>,
): Promise<void> {
  const epoch = conversation.getEpoch();
  let result: T;
  try {
    result = await outcome();
  } catch (err) {
    if (epoch !== conversation.getEpoch()) return;
    const connectionLost = !(err instanceof ApiError) || !err.status;
    step.end({ connectionLost: connectionLost && !step.signal.aborted });
    if (step.signal.aborted) messages.cancelled();
    else messages.failed(err);
    return;
  }
  if (epoch !== conversation.getEpoch()) return;
  step.end();
  messages.done(result);
}
