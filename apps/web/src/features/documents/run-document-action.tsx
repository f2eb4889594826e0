import type { ReactNode } from 'react';
import {
  proofreadResponseSchema,
  sentimentResponseSchema,
  summarizeResponseSchema,
  translateResponseSchema,
  type Job,
  type JobKind,
  type ProofreadResponse,
  type SentimentResponse,
} from '@inkwell/contract';
import { cancelledText, conversation, startWorkStep } from '../../lib/conversation';
import { replayJob, type JobReplay, type JobShape } from '../../lib/job-replay';
import {
  failureText,
  settleWork,
  type NewMessage,
  type WorkOutcomeMessages,
} from '../../lib/settle-work';
import { analyzeSentiment } from './api/analyze-sentiment';
import type { DocumentSource } from './api/document-form';
import { proofread } from './api/proofread';
import { summarize } from './api/summarize';
import { translateDocument } from './api/translate-document';
import { replayTextTranslationJob } from './run-text-translation';
import { ProofreadResult } from './components/ProofreadResult';
import { SentimentResult } from './components/SentimentResult';
import { ACTION_LABELS, type DocumentAction } from './document-actions';

export const MESSAGES = {
  noResponse: 'No response from AI',
  noSentiment: 'No sentiment analysis response',
  translationDone: 'Translation completed successfully.',
  translationEmpty: 'Translation failed.',
} as const;

/** The actions that run as long work with a step (askQuestions only enters question mode). */
type StepAction = Exclude<DocumentAction, 'askQuestions'>;
type Outcome = { text: string; extra?: ReactNode };
type About = { fileName: string; language?: string; column?: string };

/** What the step says while the action runs (spec §4). */
const stepText = (action: StepAction, { fileName, language, column }: About) =>
  action === 'translate'
    ? `Translating ${fileName} to ${language ?? ''}...`
    : `Starting ${ACTION_LABELS[action]} for ${fileName}${column ? ` (column “${column}”)` : ''}...`;

/**
 * One document action and its chat messages (spec §4): a loading 'Starting <Action> for <file>...'
 * step, then a success system message plus the ai result, or 'Error in <action>: <message>'.
 * While it runs, the step shows its progress and a Cancel button; a cancelled action posts
 * 'Cancelled: …'. The server runs it as a job: after a reload, replayDocumentJob shows it again.
 * askQuestions only enters question mode; translate needs the language chosen beforehand.
 */
export async function runDocumentAction(
  action: DocumentAction,
  source: DocumentSource,
  language?: string,
  /** Sentiment: the table column to score (else the server's choice). */
  column?: string,
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
  // Started from a menu or dialog now closed: the focus goes to the work's Cancel.
  const step = startWorkStep(stepText(action, { ...about, ...(column ? { column } : {}) }), {
    focus: true,
  });
  await settleWork(
    step,
    async (): Promise<Outcome> => {
      switch (action) {
        case 'summarize':
          return { text: (await summarize(source, step)).summary };
        case 'proofread': {
          // The findings come before the model's notes: shown under the step at once.
          let shown = false;
          const onPartial = (partial: unknown) => {
            const findings = proofreadResponseSchema.safeParse(partial);
            if (!findings.success) return;
            shown = true;
            conversation.update(step.id, { extra: <ProofreadResult result={findings.data} /> });
          };
          const result = await proofread(source, { ...step, onPartial });
          return proofreadOutcome(result, shown);
        }
        case 'analyzeSentiment':
          return sentimentOutcome(
            await analyzeSentiment(source, step, column),
            (c) => void runDocumentAction('analyzeSentiment', source, undefined, c),
          );
        case 'translate':
          return { text: (await translateDocument(source, language ?? '', step)).translation };
      }
    },
    outcomeMessages(action, about),
  );
}

/** The job kinds of the document actions, by the action that starts them. */
const ACTION_OF_KIND: Partial<Record<JobKind, StepAction>> = {
  summarize: 'summarize',
  proofread: 'proofread',
  sentiment: 'analyzeSentiment',
  translate: 'translate',
};

/** A document action's job shown again (after a reload, on another device). */
export function replayDocumentJob(job: Job): JobReplay | null {
  const action = ACTION_OF_KIND[job.kind];
  if (!action) return null;
  if (action === 'translate' && job.about.text !== undefined && !job.about.file_name)
    return replayTextTranslationJob(job);
  const about: About = { fileName: job.about.file_name ?? '', language: job.about.target_language };
  const shape = <R,>(schema: JobShape<R, Outcome>['schema'], toOutcome: (r: R) => Outcome) =>
    replayJob(job, {
      stepText: stepText(action, about),
      schema,
      toOutcome,
      messages: outcomeMessages(action, about),
    });
  switch (action) {
    case 'summarize':
      return shape(summarizeResponseSchema, (r) => ({ text: r.summary }));
    case 'proofread':
      return shape(proofreadResponseSchema, (r) => proofreadOutcome(r));
    case 'analyzeSentiment':
      return shape(sentimentResponseSchema, (r) => sentimentOutcome(r));
    case 'translate':
      return shape(translateResponseSchema, (r) => ({ text: r.translation }));
  }
}

/** The findings go under the reply, unless they are already shown under the step. */
const proofreadOutcome = (r: ProofreadResponse, findingsShown = false): Outcome => ({
  text: r.response,
  ...(findingsShown ? {} : { extra: <ProofreadResult result={r} /> }),
});
const sentimentOutcome = (r: SentimentResponse, onColumn?: (column: string) => void): Outcome => ({
  text: r.response,
  extra: <SentimentResult result={r} onColumn={onColumn} />,
});

/** The spec's messages for each way an action ends. */
function outcomeMessages(action: StepAction, about: About): WorkOutcomeMessages<Outcome> {
  const label = ACTION_LABELS[action];
  return {
    cancelled: () => {
      const what = action === 'translate' ? 'translation of' : `${label} for`;
      return [{ type: 'system', text: cancelledText(`${what} ${about.fileName}.`) }];
    },
    failed: (err) => [
      action === 'translate'
        ? { type: 'error', text: `Translation failed: ${failureText(err) || 'Unknown error'}.` }
        : { type: 'error', text: `Error in ${action}: ${failureText(err)}` },
    ],
    done: (result) => doneMessages(action, about.fileName, result),
  };
}

function doneMessages(action: StepAction, fileName: string, result: Outcome): NewMessage[] {
  const hasText = result.text.trim() !== '';
  if (action === 'translate') {
    if (!hasText) return [{ type: 'error', text: MESSAGES.translationEmpty }];
    return [
      { type: 'system', text: MESSAGES.translationDone },
      { type: 'ai', text: result.text },
    ];
  }
  const empty = action === 'analyzeSentiment' ? MESSAGES.noSentiment : MESSAGES.noResponse;
  if (!hasText && !result.extra) return [{ type: 'error', text: empty }];
  return [
    { type: 'system', text: `${ACTION_LABELS[action]} completed for ${fileName}.` },
    { type: 'ai', text: hasText ? result.text : empty, extra: result.extra },
  ];
}
