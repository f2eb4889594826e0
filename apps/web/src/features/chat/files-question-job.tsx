import type { AskFilesResponse, Job } from '@inkwell/contract';
import { cancelledText, startWorkStep } from '../../lib/conversation';
import type { PickedFile } from '../../lib/files-question';
import { replayJob, type JobReplay } from '../../lib/job-replay';
import { failureText, settleWork, type WorkOutcomeMessages } from '../../lib/settle-work';
import { askFiles, askFilesAnswerParser } from './api/ask-files';
import { LOADING_TEXT, NO_RESPONSE } from './chat-texts';
import { SourceChips } from './components/SourceChips';

export const ASK_FILES_LABEL = 'Ask my files';

/** The step of a question across files: the ai 'Loading...', with progress and Cancel. */
const stepOptions = {
  type: 'ai' as const,
  label: 'the answer from your files',
  replacedByOutcome: true,
};

/**
 * A question across the user's files (issue 35), the question already posted: its 'Loading...'
 * reply shows the job's progress and Cancel, then becomes the answer with its sources as chips,
 * or is replaced by 'Error in Ask my files: …'. A job on the server: it comes back after a reload.
 */
export async function runFilesQuestion(text: string, picked: PickedFile[]): Promise<void> {
  const step = startWorkStep(LOADING_TEXT, stepOptions);
  await settleWork(
    step,
    () =>
      askFiles(
        text,
        picked.map((f) => f.id),
        step,
      ),
    outcomeMessages,
  );
}

/** A question's job across files shown again (after a reload): the question, then its answer. */
export function replayFilesQuestionJob(job: Job): JobReplay | null {
  if (job.kind !== 'ask_files') return null;
  return replayJob(job, {
    stepText: LOADING_TEXT,
    step: stepOptions,
    before: job.about.question ? [{ type: 'user', text: job.about.question }] : [],
    schema: askFilesAnswerParser,
    toOutcome: (r) => r,
    messages: outcomeMessages,
  });
}

const outcomeMessages: WorkOutcomeMessages<AskFilesResponse> = {
  done: ({ response, sources }) => [
    {
      type: 'ai',
      text: response.trim() ? response : NO_RESPONSE,
      extra: <SourceChips sources={sources} />,
    },
  ],
  failed: (err) => [{ type: 'error', text: `Error in ${ASK_FILES_LABEL}: ${failureText(err)}` }],
  cancelled: () => [{ type: 'system', text: cancelledText('question across your files.') }],
};
