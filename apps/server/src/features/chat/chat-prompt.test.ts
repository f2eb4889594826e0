import { describe, expect, it } from 'vitest';
import { buildPrompt, SYSTEM_PROMPT } from './chat-prompt';

const budget = {
  contextTokens: 1024,
  replyTokens: 256,
  countTokens: (t: string) => Math.ceil(t.length / 4),
};
type Turn = { role: 'user' | 'assistant'; content: string };

/** A conversation of `n` exchanges, question and answer of varied length. */
function conversation(n: number): Turn[] {
  return Array.from({ length: n }, (_, i) => [
    { role: 'user' as const, content: `Question ${i}: ${'why ink? '.repeat(5 + (i % 7))}` },
    { role: 'assistant' as const, content: `Answer ${i}: ${'because. '.repeat(20 + (i % 5))}` },
  ]).flat();
}
const cost = (turns: { content: string }[]) =>
  turns.reduce((n, t) => n + budget.countTokens(t.content) + 8, 0);

describe('chat prompt', () => {
  it('fits the budget, starts with a question, ends with the new one', () => {
    for (let n = 0; n < 40; n++) {
      const prompt = buildPrompt(conversation(n), 'And now?', budget);
      expect(prompt[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
      expect(prompt[1]?.role).toBe('user');
      expect(prompt.at(-1)).toEqual({ role: 'user', content: 'And now?' });
      expect(cost(prompt)).toBeLessThanOrEqual(budget.contextTokens - budget.replyTokens);
    }
  });

  it('keeps the beginning of a long conversation from one message to the next, moving it rarely', () => {
    const all = conversation(60);
    let moves = 0;
    let previous: string[] | undefined;
    for (let n = 1; n < 60; n++) {
      const history = buildPrompt(all.slice(0, 2 * n), `Follow-up ${n}`, budget)
        .slice(1, -1)
        .map((t) => t.content);
      if (previous) {
        // Either the previous history with the last exchange added, or a jump forward.
        const extends_ = previous.every((c, i) => history[i] === c);
        if (!extends_) moves++;
        else expect(history.length).toBe(previous.length + 2);
      }
      previous = history;
    }
    // Dropping one exchange at a time would move the beginning at almost every message.
    expect(moves).toBeGreaterThan(0);
    expect(moves).toBeLessThan(15);
  });

  it('keeps the whole history while it fits', () => {
    const history = conversation(2);
    expect(buildPrompt(history, 'Next?', budget)).toHaveLength(history.length + 2);
  });
});
