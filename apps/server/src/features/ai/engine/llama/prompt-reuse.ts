import type { ChatWrapper, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp';
import type { ChatTurn } from '../../language-model';
import { toHistory } from './llama-tuning';

/** Fewest kept tokens worth a gap drop (below it, evaluating them again costs about as much). */
export const MIN_KEPT_AFTER_GAP = 32;

/**
 * Before a call generates on a sequence, the sequence is cut back to what it shares with the
 * call's prompt. node-llama-cpp would erase the rest itself, but under the context's lock, which
 * its decode loop holds as long as any sequence has tokens queued: a chat given a sequence that
 * held another prompt's tokens waited for every running document call to end (the 8x first token
 * during a summary). Cut here through `cut` (SequenceCuts: between two decodes), the sequence
 * holds only a start of the prompt, so the library reuses it and evaluates just the rest: a
 * person's follow-up on their kept conversation costs only the new message.
 *
 * With `dropGap` (given only while nothing decodes: it takes the context lock), a prompt that
 * left out a block of what the sequence holds — a long conversation whose oldest exchanges the
 * history window dropped — keeps the rest: the block is erased from the sequence and the tokens
 * after it shifted into place (a cheap rotation of their cached keys, as llama.cpp's context shift
 * and node-llama-cpp's own chat session do), instead of evaluating the whole kept history again.
 *
 * Returns the tokens reused (what the call will not evaluate again).
 */
export async function cutToPrompt(
  model: Pick<LlamaModel, 'tokenizer'>,
  chatWrapper: ChatWrapper,
  sequence: LlamaContextSequence,
  turns: ChatTurn[],
  cut: (sequence: LlamaContextSequence, keep: number) => Promise<void>,
  dropGap?: (sequence: LlamaContextSequence, start: number, end: number) => Promise<void>,
): Promise<number> {
  if (sequence.nextTokenIndex === 0) return 0;
  const prompt = promptTokens(model, chatWrapper, turns);
  // At least the prompt's last token is evaluated again: its logits give the first reply token.
  const sharedNow = () =>
    Math.min(
      sequence.compareContextTokens(prompt).firstDifferentIndex,
      Math.max(0, prompt.length - 1),
    );
  let shared = sharedNow();
  // Only a prompt that carries earlier exchanges: a new topic's evaluates its question afresh,
  // even one asked before (its kept tokens would carry the old conversation's context).
  const continues = turns.some((t) => t.role === 'assistant');
  if (dropGap && continues && shared > 0 && shared < sequence.nextTokenIndex) {
    const gap = findGap(sequence.contextTokens, prompt, shared);
    if (gap) {
      await dropGap(sequence, shared, gap.end);
      shared = sharedNow();
    }
  }
  if (shared < sequence.nextTokenIndex) await cut(sequence, shared);
  return shared;
}

/**
 * Where the prompt, from its token `from` on, goes on as the sequence's tokens do after a gap:
 * the end of the gap [from, end) whose removal keeps the most tokens (at least
 * MIN_KEPT_AFTER_GAP), or undefined.
 */
export function findGap<T = Token>(
  held: readonly T[],
  prompt: readonly T[],
  from: number,
): { end: number; kept: number } | undefined {
  // The last prompt token is always evaluated again (cutToPrompt).
  const last = prompt.length - 1;
  let best: { end: number; kept: number } | undefined;
  for (let end = from + 1; end < held.length; end++) {
    if (held[end] !== prompt[from]) continue;
    let kept = 0;
    while (
      end + kept < held.length &&
      from + kept < last &&
      held[end + kept] === prompt[from + kept]
    )
      kept++;
    if (kept >= MIN_KEPT_AFTER_GAP && kept > (best?.kept ?? 0)) best = { end, kept };
  }
  return best;
}

/** The tokens LlamaChat evaluates for these turns (the same rendering, without functions). */
export function promptTokens(
  model: Pick<LlamaModel, 'tokenizer'>,
  chatWrapper: ChatWrapper,
  turns: ChatTurn[],
) {
  return chatWrapper
    .generateContextState({ chatHistory: toHistory(turns) })
    .contextText.tokenize(model.tokenizer);
}

/**
 * Whether tokens of this sequence can be erased from its middle and the rest shifted (as
 * node-llama-cpp's adaptStateToTokens decides; sequences that need checkpoints are left alone).
 */
export function canShiftTokens(
  model: Pick<LlamaModel, 'fileInsights' | 'fileInfo'>,
  sequence: LlamaContextSequence,
): boolean {
  return (
    !model.fileInsights.isRecurrent &&
    model.fileInfo.metadata?.general?.architecture !== 'deepseek2' &&
    !sequence.needsCheckpoints
  );
}
