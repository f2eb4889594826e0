import type { BatchItem, Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import {
  BATCH_TOKENS,
  BATCH_TOKENS_BESIDE_PEOPLE,
  EVALUATION_PRIORITY,
  interactiveFirst,
  shareEvenly,
} from './batch-priority';

const item = (tokens: number, priority: 'interactive' | 'batch'): BatchItem => ({
  tokens: Array.from({ length: tokens }, (_, i) => i as Token),
  logits: [],
  evaluationPriority: EVALUATION_PRIORITY[priority],
});
const amounts = (out: { item: BatchItem; processAmount: number }[], items: BatchItem[]) =>
  items.map((i) => out.find((p) => p.item === i)?.processAmount ?? 0);

describe('interactiveFirst batch prioritization', () => {
  it("evaluates a person's prompt alone, before a summary's prompt evaluation", () => {
    const summary = item(3000, 'batch');
    const chat = item(300, 'interactive');
    const out = interactiveFirst(() => true)({ items: [summary, chat], size: 512 });
    expect(amounts(out, [chat, summary])).toEqual([300, 0]);
    expect(out).toHaveLength(1);
  });

  it('shares the batch evenly between people, and leaves document work out when they fill it', () => {
    const chats = [item(400, 'interactive'), item(100, 'interactive'), item(400, 'interactive')];
    const summary = item(2000, 'batch');
    const out = interactiveFirst(() => true)({ items: [summary, ...chats], size: 512 });
    expect(amounts(out, chats)).toEqual([206, 100, 206]);
    expect(out.some((p) => p.item === summary)).toBe(false);
    expect(out.reduce((n, p) => n + p.processAmount, 0)).toBe(512);
  });

  it('keeps document work small while a person generates, between their tokens too', () => {
    const summary = item(3000, 'batch');
    // The chat's next token is not queued yet (it is being sampled): the summary still trickles.
    expect(
      amounts(interactiveFirst(() => true)({ items: [summary], size: 512 }), [summary]),
    ).toEqual([BATCH_TOKENS_BESIDE_PEOPLE]);
    // Nobody waits: document work gets its own bounded share, so a chat arriving waits for little.
    expect(
      amounts(interactiveFirst(() => false)({ items: [summary], size: 512 }), [summary]),
    ).toEqual([BATCH_TOKENS]);
  });

  it('never returns an empty batch while items wait (node-llama-cpp would spin)', () => {
    const strategy = interactiveFirst(() => true);
    for (const items of [
      [item(1, 'batch')],
      [item(5, 'batch'), item(7, 'batch')],
      [item(1, 'interactive')],
    ])
      expect(strategy({ items, size: 512 }).length).toBeGreaterThan(0);
  });

  it('shareEvenly gives each item its even part, the short ones all they need, within the budget', () => {
    const items = [item(10, 'batch'), item(100, 'batch'), item(100, 'batch')];
    expect(amounts(shareEvenly(items, 100), items)).toEqual([10, 45, 45]);
    expect(amounts(shareEvenly(items, 2), items)).toEqual([1, 1, 0]);
    expect(shareEvenly(items, 0)).toEqual([]);
  });
});
