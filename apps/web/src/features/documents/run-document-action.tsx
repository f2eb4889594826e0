import type { ReactNode } from 'react';
import { conversation, endStep, startStep } from '../../lib/conversation';
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

/**
 * One document action and its chat messages (spec §4): a loading 'Starting <Action> for <file>...'
 * step, then a success system message plus the ai result, or 'Error in <action>: <message>'.
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
  if (action === 'translate') return translate(source, language ?? '');

  const label = ACTION_LABELS[action];
  const epoch = conversation.getEpoch();
  const step = startStep(`Starting ${label} for ${source.fileName}...`);
  let text = '';
  let extra: ReactNode;
  let empty: string = MESSAGES.noResponse;
  try {
    if (action === 'summarize') {
      text = (await summarize(source)).summary;
    } else if (action === 'proofread') {
      const result = await proofread(source);
      text = result.response;
      extra = <ProofreadResult result={result} />;
    } else {
      const result = await analyzeSentiment(source);
      text = result.response;
      empty = MESSAGES.noSentiment;
      extra = <SentimentResult result={result} />;
    }
  } catch (err) {
    if (epoch !== conversation.getEpoch()) return;
    endStep(step);
    conversation.add({ type: 'error', text: `Error in ${action}: ${errorText(err)}` });
    return;
  }
  if (epoch !== conversation.getEpoch()) return;
  endStep(step);
  if (!text.trim() && !extra) {
    conversation.add({ type: 'error', text: empty });
    return;
  }
  conversation.add({ type: 'system', text: `${label} completed for ${source.fileName}.` });
  conversation.add({ type: 'ai', text: text.trim() ? text : empty, extra });
}

async function translate(source: DocumentSource, language: string) {
  const epoch = conversation.getEpoch();
  const step = startStep(`Translating ${source.fileName} to ${language}...`);
  try {
    const { translation } = await translateDocument(source, language);
    if (epoch !== conversation.getEpoch()) return;
    endStep(step);
    if (!translation.trim()) {
      conversation.add({ type: 'error', text: MESSAGES.translationEmpty });
      return;
    }
    conversation.add({ type: 'system', text: MESSAGES.translationDone });
    conversation.add({ type: 'ai', text: translation });
  } catch (err) {
    if (epoch !== conversation.getEpoch()) return;
    endStep(step);
    conversation.add({
      type: 'error',
      text: `Translation failed: ${errorText(err) || 'Unknown error'}.`,
    });
  }
}
