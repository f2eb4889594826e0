import type { LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptSystemPrefix, SystemPrefix } from './system-prefix';
import { openTinyLlama } from './tiny-llama.test-helper';

const SYSTEM = 'You are a careful assistant for lighthouse keepers.';
const OTHER_SYSTEM = 'You translate texts.';

describe('SystemPrefix (prompt caching) with the tiny GGUF', () => {
  let tiny: Awaited<ReturnType<typeof openTinyLlama>>;
  let model: LlamaModel;
  let sequence: LlamaContextSequence;
  let second: LlamaContextSequence;
  let prefix: SystemPrefix;

  beforeAll(async () => {
    tiny = await openTinyLlama({ sequences: 2, contextSize: 512 });
    model = tiny.model;
    [sequence, second] = tiny.sequences as [LlamaContextSequence, LlamaContextSequence];
    prefix = new SystemPrefix(model, tiny.chatWrapper);
  });
  afterAll(async () => {
    await tiny?.close();
  });

  /** One short generation; returns the prompt tokens it had to evaluate. */
  const ask = (system: string, user: string, on = sequence) => tiny.ask(on, system, user);
  const kept = () => model.detokenize(sequence.contextTokens);

  it('keeps the system turn and nothing of what the user asked', async () => {
    await sequence.clearHistory();
    await ask(SYSTEM, 'my secret question about the harbour');
    expect(kept()).toContain('secret');
    await prefix.keepOnly(sequence, SYSTEM);
    expect(sequence.contextTokens).toEqual(prefix.tokens(SYSTEM));
    expect(kept()).toContain(SYSTEM);
    expect(kept()).not.toContain('secret');
    expect(kept()).not.toContain('harbour');
    expect(prefix.holds(sequence, SYSTEM)).toBe(true);
  });

  it('spares the next request with the same system message from evaluating it again', async () => {
    const question = 'how tall is the tower?';
    await sequence.clearHistory();
    const fresh = await ask(SYSTEM, question);
    await prefix.keepOnly(sequence, SYSTEM);
    const reused = await ask(SYSTEM, question);
    expect(prefix.tokens(SYSTEM).length).toBeGreaterThan(SYSTEM.length / 4);
    expect(reused).toBe(fresh - prefix.tokens(SYSTEM).length);
  });

  it('clears a sequence that holds another system message, or none', async () => {
    await sequence.clearHistory();
    await ask(OTHER_SYSTEM, 'Bonjour');
    expect(prefix.holds(sequence, SYSTEM)).toBe(false);
    await prefix.keepOnly(sequence, SYSTEM);
    expect(sequence.nextTokenIndex).toBe(0);

    await ask(SYSTEM, 'a question');
    await prefix.keepOnly(sequence, undefined);
    expect(sequence.nextTokenIndex).toBe(0);
  });

  it("copies the system message's evaluated tokens to a fresh sequence, and nothing else", async () => {
    const question = 'where is the lamp oil?';
    await sequence.clearHistory();
    await second.clearHistory();
    const fresh = await ask(SYSTEM, question, second);
    await second.clearHistory();
    await ask(SYSTEM, 'my secret question about the harbour');
    expect(await adoptSystemPrefix(prefix, second, SYSTEM, [sequence, second])).toBe(true);
    expect(second.contextTokens).toEqual(prefix.tokens(SYSTEM));
    expect(model.detokenize(second.contextTokens)).not.toContain('secret');
    // The copy serves like evaluated tokens: only the question is evaluated.
    expect(await ask(SYSTEM, question, second)).toBe(fresh - prefix.tokens(SYSTEM).length);
    // Nothing to copy from for another system message: left to evaluation.
    await second.clearHistory();
    expect(await adoptSystemPrefix(prefix, second, OTHER_SYSTEM, [sequence, second])).toBe(false);
  });
});
