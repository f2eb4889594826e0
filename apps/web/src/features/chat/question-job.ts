import { askQuestionsResponseSchema, type Job } from '@inkwell/contract';
import {
  cancelledText,
  conversation,
  startWorkStep,
  type QuestionTarget,
} from '../../lib/conversation';
import { replayJob, type JobReplay } from '../../lib/job-replay';
import { failureText, settleWork, type WorkOutcomeMessages } from '../../lib/settle-work';
import { askAnswerParser, askQuestion } from './api/ask-question';
import { LOADING_TEXT, NO_RESPONSE } from './chat-texts';

/** The step of a question: the ai 'Loading...' (spec §4), with progress and Cancel, then the answer. */
const stepOptions = (fileName: string) => ({
  type: 'ai' as const,
  label: `the answer about ${fileName}`,
  replacedByOutcome: true,
});

/**
 * A question about a file (askQuestions question mode, spec §4): the question is already posted;
 * its 'Loading...' reply shows the job's progress and Cancel and becomes the answer, or is
 * replaced by 'Error in askQuestions: …'. The server runs it as a job: it comes back after a reload.
 */
export async function runQuestion(target: QuestionTarget, text: string): Promise<void> {
  const step = startWorkStep(LOADING_TEXT, stepOptions(target.fileName));
  const onPartial = streamAnswer(step.id);
  await settleWork(
    step,
    async () => (await askQuestion(target, text, { ...step, onPartial })).response,
    outcomeMessages(target.fileName),
  );
}

/** A question's job shown again (after a reload, on another device): the question, then its answer. */
export function replayQuestionJob(job: Job): JobReplay | null {
  if (job.kind !== 'ask') return null;
  const fileName = job.about.file_name ?? '';
  return replayJob(job, {
    stepText: LOADING_TEXT,
    step: stepOptions(fileName),
    before: job.about.question ? [{ type: 'user', text: job.about.question }] : [],
    schema: askAnswerParser,
    onPartial: streamAnswer,
    toOutcome: (r) => r.response,
    messages: outcomeMessages(fileName),
  });
}

/**
 * The answer so far (the server's `partial` events) replaces 'Loading...' as it is written; the
 * progress and Cancel stay until the whole answer, with its sources, takes its place.
 */
function streamAnswer(stepId: string) {
  return (partial: unknown) => {
    const soFar = askQuestionsResponseSchema.safeParse(partial);
    if (soFar.success && soFar.data.response.trim()) {
      conversation.update(stepId, { text: soFar.data.response, isLoading: false, streaming: true });
    }
  };
}

function outcomeMessages(fileName: string): WorkOutcomeMessages<string> {
  return {
    done: (answer) => [{ type: 'ai', text: answer.trim() ? answer : NO_RESPONSE }],
    failed: (err) => [{ type: 'error', text: `Error in askQuestions: ${failureText(err)}` }],
    cancelled: () => [{ type: 'system', text: cancelledText(`question about ${fileName}.`) }],
  };
}
