import type { ChatTurn } from '../ai';

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
 * System prompt + recent history + the new question. Whole exchanges are dropped from the oldest
 * end, so the model never sees an answer without its question.
 *
 * The history kept starts at a checkpoint: the first message after each WINDOW_STEP share of the
 * history budget, counted from the conversation's start. The earliest checkpoint from which the
 * rest fits is chosen, so while a conversation grows its prompt keeps the same beginning and only
 * gains the new exchanges at its end; the engine, which keeps what it evaluated of a person's
 * conversation, then evaluates only the new message (dropping one exchange at a time would change
 * the beginning of every prompt once the context is full, and every follow-up would cost the whole
 * history again). The price: up to one step less history than would fit.
 */
const WINDOW_STEP = 0.5;

export function buildPrompt(
  history: { role: 'user' | 'assistant'; content: string }[],
  question: string,
  budget: PromptBudget,
): ChatTurn[] {
  const cost = (text: string) => budget.countTokens(text) + PER_TURN_OVERHEAD;
  const room = budget.contextTokens - budget.replyTokens - cost(SYSTEM_PROMPT);
  const left = room - cost(question);
  const costs = history.map((turn) => cost(turn.content));
  // Checkpoints depend on the history's own costs only (not on the question), so they stay put.
  const step = Math.max(1, Math.floor(room * WINDOW_STEP));
  const total = costs.reduce((a, b) => a + b, 0);
  let start = total <= left ? 0 : -1;
  for (let i = 0, rest = total, crossed = 0; start < 0 && i < history.length; i++) {
    rest -= costs[i]!;
    crossed += costs[i]!;
    if (crossed < step) continue;
    crossed = 0;
    if (rest <= left) start = i + 1;
  }
  // No checkpoint leaves a history that fits (a long question): drop up to where it fits.
  if (start < 0) {
    start = 0;
    for (let rest = total; rest > left && start < costs.length; start++) rest -= costs[start]!;
  }
  const kept: ChatTurn[] = history
    .slice(start)
    .map((turn) => ({ role: turn.role, content: turn.content }));
  // An assistant turn first means its question was dropped: drop it too.
  while (kept[0]?.role === 'assistant') kept.shift();
  return [{ role: 'system', content: SYSTEM_PROMPT }, ...kept, { role: 'user', content: question }];
}
