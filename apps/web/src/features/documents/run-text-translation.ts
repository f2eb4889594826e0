import { translateResponseSchema, type Job } from '@inkwell/contract';
import { cancelledText, conversation } from '../../lib/conversation';
import { replayJob, type JobReplay } from '../../lib/job-replay';
import { failureText } from '../../lib/settle-work';
import { translateText } from './api/translate-text';
import type { TranslateTextInput } from './components/TranslateTextDialog';

export const TRANSLATING_TEXT = 'Translating...';

/**
 * Text translation (spec §4): a loading system message 'Translating...' is replaced by an ai
 * message with the translation, or removed on failure (logged only, spec §8). The server keeps
 * it as a job: after a reload, replayTextTranslationJob shows it again.
 */
export async function runTextTranslation(input: TranslateTextInput): Promise<void> {
  const epoch = conversation.getEpoch();
  const id = conversation.add({ type: 'system', text: TRANSLATING_TEXT, isLoading: true });
  try {
    const { translation } = await translateText(input);
    if (epoch !== conversation.getEpoch()) return;
    if (!translation.trim()) conversation.remove(id);
    else conversation.update(id, { type: 'ai', text: translation, isLoading: false });
  } catch {
    conversation.remove(id);
  }
}

/** A typed text's translation (a `translate` job with `about.text`) shown again after a reload. */
export function replayTextTranslationJob(job: Job): JobReplay {
  return replayJob(job, {
    stepText: TRANSLATING_TEXT,
    step: { replacedByOutcome: true },
    schema: translateResponseSchema,
    toOutcome: (r) => r.translation,
    messages: {
      done: (text) =>
        text.trim() ? [{ type: 'ai', text }] : [{ type: 'error', text: 'Translation failed.' }],
      cancelled: () => [{ type: 'system', text: cancelledText('translation.') }],
      // Shown after a reload rather than nothing: the person asked for it and would look for it.
      failed: (err) => [
        { type: 'error', text: `Translation failed: ${failureText(err) || 'Unknown error'}.` },
      ],
    },
  });
}
