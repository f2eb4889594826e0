import type { ChatTurn } from '../ai/language-model';

/** What the assistant is; the first turn of every conversation sent to the model. */
export const SYSTEM_PROMPT =
  'You are Inkwell, a helpful AI content assistant. You help users write, proofread, summarize, ' +
  'translate and understand texts, and answer general questions. Answer in the language of the ' +
  "user's message, clearly and concisely, in plain text or Markdown (never HTML). If you are not " +
  'sure of something, say so instead of inventing facts.';

/** Tokens a chat template adds around each message (role markers, separators); an upper estimate. */
const PER_TURN_OVERHEAD = 8;

export interface PromptBudget {
  contextTokens: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  countTokens(text: string): number;
}

/** Reply length bound: a quarter of the context, at most 1024 tokens, at least 16. */
export function replyTokensFor(contextTokens: number): number {
  return Math.max(16, Math.min(1024, Math.floor(contextTokens / 4)));
}

/**
 * System prompt + as much recent history as fits + the new question. History is taken newest
 * first and whole exchanges are dropped from the oldest end, so the model never sees an answer
 * without its question.
 */
export function buildPrompt(
  history: { role: 'user' | 'assistant'; content: string }[],
  question: string,
  budget: PromptBudget,
): ChatTurn[] {
  const cost = (text: string) => budget.countTokens(text) + PER_TURN_OVERHEAD;
  let left = budget.contextTokens - budget.replyTokens - cost(SYSTEM_PROMPT) - cost(question);
  const kept: ChatTurn[] = [];
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i]!;
    const c = cost(turn.content);
    if (c > left) break;
    left -= c;
    kept.push({ role: turn.role, content: turn.content });
  }
  kept.reverse();
  // An assistant turn first means its question was dropped: drop it too.
  while (kept[0]?.role === 'assistant') kept.shift();
  return [{ role: 'system', content: SYSTEM_PROMPT }, ...kept, { role: 'user', content: question }];
}
