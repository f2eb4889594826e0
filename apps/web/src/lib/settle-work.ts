import { conversation, type ConversationMessage, type WorkStep } from './conversation';

/** A message a feature posts, without its id (the conversation gives one). */
export type NewMessage = Omit<ConversationMessage, 'id'>;

/**
 * The messages a feature posts once its long work has ended, one way or the other. The same
 * messages are shown again after a reload from the job's stored outcome (job-replay.ts).
 */
export interface WorkOutcomeMessages<T> {
  done(result: T): NewMessage[];
  cancelled(): NewMessage[];
  failed(err: unknown): NewMessage[];
}

/** What a failed piece of work says: the server's words when it gave any, else the error's. */
export function failureText(err: unknown): string {
  const e = err as { serverMessage?: string; message?: string } | undefined;
  return e?.serverMessage ?? e?.message ?? '';
}

/**
 * Waits for long work and ends its step, then posts the feature's messages for its outcome,
 * unless a New Topic or logout emptied the conversation meanwhile. When the page lost the answer
 * (a network cut) the job goes on on the server and is shown with its result on the next load.
 */
export async function settleWork<T>(
  step: WorkStep,
  outcome: () => Promise<T>,
  messages: WorkOutcomeMessages<T>,
): Promise<void> {
  const epoch = conversation.getEpoch();
  let posted: NewMessage[];
  try {
    posted = messages.done(await outcome());
  } catch (err) {
    if (epoch !== conversation.getEpoch()) return;
    posted = step.signal.aborted ? messages.cancelled() : messages.failed(err);
  }
  if (epoch !== conversation.getEpoch()) return;
  step.end();
  post(step, posted);
}

function post(step: WorkStep, messages: NewMessage[]) {
  const [first, ...rest] = messages;
  if (step.replacedByOutcome && first) {
    conversation.update(step.id, { ...first, isLoading: false, streaming: false, work: undefined });
  } else if (first) {
    conversation.add(first);
  }
  rest.forEach((m) => conversation.add(m));
}
