import type { ReactNode } from 'react';
import {
  proofreadResponseSchema,
  sentimentResponseSchema,
  summarizeResponseSchema,
  translateResponseSchema,
  type ProofreadResponse,
  type SentimentResponse,
} from '@inkwell/contract';
import { cancelledText, conversation, startWorkStep, type WorkStep } from '../../lib/conversation';
import { followJob } from '../../lib/progress-request';
import type { RememberedJob } from '../../lib/remembered-jobs';
import { settleWork } from '../../lib/settle-work';
import { analyzeSentiment } from './api/analyze-sentiment';
import type { DocumentSource } from './api/document-form';
import { proofread } from './api/proofread';
import { summarize } from './api/summarize';
import { translateDocument } from './api/translate-document';
import { ProofreadResult } from './components/ProofreadResult';
import { SentimentResult } from './components/SentimentResult';
import { ACTION_LABELS, type DocumentAction } from './document-actions';

export const MESSAGES = {
  noResponse: 'No response from AI',
  noSentiment: 'No sentiment analysis response',
  translationDone: 'Translation completed successfully.',
  translationEmpty: 'Translation failed.',
} as const;

const errorText = (err: unknown) => {
  const e = err as { serverMessage?: string; message?: string } | undefined;
  return e?.serverMessage ?? e?.message ?? '';
};

/** The actions that run as long work with a step (askQuestions only enters question mode). */
type StepAction = Exclude<DocumentAction, 'askQuestions'>;
type Outcome = { text: string; extra?: ReactNode };

/** What the step says while the action runs (spec §4). */
const stepText = (action: StepAction, fileName: string, language?: string) =>
  action === 'translate'
    ? `Translating ${fileName} to ${language ?? ''}...`
    : `Starting ${ACTION_LABELS[action]} for ${fileName}...`;

/**
 * One document action and its chat messages (spec §4): a loading 'Starting <Action> for <file>...'
 * step, then a success system message plus the ai result, or 'Error in <action>: <message>'.
 * While it runs, the step shows its progress and a Cancel button; a cancelled action posts
 * 'Cancelled: …'. The server runs it as a job: after a reload, resumeDocumentJob shows it again.
 * askQuestions only enters question mode; translate needs the language chosen beforehand.
 */
export async function runDocumentAction(
  action: DocumentAction,
  source: DocumentSource,
  language?: string,
): Promise<void> {
  if (action === 'askQuestions') {
    conversation.setQuestionTarget(source);
    conversation.add({
      type: 'system',
      text: `Go ahead and ask questions about ${source.fileName}...`,
    });
    return;
  }
  const about = { fileName: source.fileName, ...(language ? { language } : {}) };
  const step = startWorkStep(stepText(action, source.fileName, language), {
    feature: 'documents',
    action,
    about,
  });
  await settle(action, about, step, async (): Promise<Outcome> => {
    switch (action) {
      case 'summarize':
        return { text: (await summarize(source, step)).summary };
      case 'proofread':
        return proofreadOutcome(await proofread(source, step));
      case 'analyzeSentiment':
        return sentimentOutcome(await analyzeSentiment(source, step));
      case 'translate':
        return { text: (await translateDocument(source, language ?? '', step)).translation };
    }
  });
}

/** A document action started before a reload: its step again, following the job to its end. */
export async function resumeDocumentJob(job: RememberedJob): Promise<void> {
  const action = job.action as StepAction;
  const about = job.about as { fileName: string; language?: string };
  const step = startWorkStep(stepText(action, about.fileName, about.language), undefined, job.id);
  await settle(action, about, step, async (): Promise<Outcome> => {
    switch (action) {
      case 'summarize':
        return { text: (await followJob(job.id, summarizeResponseSchema, step)).summary };
      case 'proofread':
        return proofreadOutcome(await followJob(job.id, proofreadResponseSchema, step));
      case 'analyzeSentiment':
        return sentimentOutcome(await followJob(job.id, sentimentResponseSchema, step));
      case 'translate':
        return { text: (await followJob(job.id, translateResponseSchema, step)).translation };
    }
  });
}

const proofreadOutcome = (r: ProofreadResponse): Outcome => ({
  text: r.response,
  extra: <ProofreadResult result={r} />,
});
const sentimentOutcome = (r: SentimentResponse): Outcome => ({
  text: r.response,
  extra: <SentimentResult result={r} />,
});

/** Waits for the outcome and posts the spec's messages for it. */
function settle(
  action: StepAction,
  about: { fileName: string; language?: string },
  step: WorkStep,
  outcome: () => Promise<Outcome>,
) {
  const label = ACTION_LABELS[action];
  return settleWork(step, outcome, {
    cancelled: () => {
      const what = action === 'translate' ? 'translation of' : `${label} for`;
      conversation.add({ type: 'system', text: cancelledText(`${what} ${about.fileName}.`) });
    },
    failed: (err) =>
      conversation.add(
        action === 'translate'
          ? { type: 'error', text: `Translation failed: ${errorText(err) || 'Unknown error'}.` }
          : { type: 'error', text: `Error in ${action}: ${errorText(err)}` },
      ),
    done: (result) => showOutcome(action, about.fileName, result),
  });
}

function showOutcome(action: StepAction, fileName: string, result: Outcome) {
  const hasText = result.text.trim() !== '';
  if (action === 'translate') {
    if (!hasText) return void conversation.add({ type: 'error', text: MESSAGES.translationEmpty });
    conversation.add({ type: 'system', text: MESSAGES.translationDone });
    conversation.add({ type: 'ai', text: result.text });
    return;
  }
  const empty = action === 'analyzeSentiment' ? MESSAGES.noSentiment : MESSAGES.noResponse;
  if (!hasText && !result.extra) return void conversation.add({ type: 'error', text: empty });
  conversation.add({ type: 'system', text: `${ACTION_LABELS[action]} completed for ${fileName}.` });
  conversation.add({ type: 'ai', text: hasText ? result.text : empty, extra: result.extra });
}
