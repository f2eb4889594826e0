import { conversation } from '../../lib/conversation';
import { translateText } from './api/translate-text';
import type { TranslateTextInput } from './components/TranslateTextDialog';

export const TRANSLATING_TEXT = 'Translating...';

/**
 * Text translation (spec §4): a loading system message 'Translating...' is replaced by an ai
 * message with the translation, or removed on failure (logged only, spec §8).
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
