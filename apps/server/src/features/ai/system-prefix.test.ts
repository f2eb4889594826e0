import { availableParallelism } from 'node:os';
import type {
  ChatHistoryItem,
  ChatWrapper,
  Llama,
  LlamaChat,
  LlamaContextSequence,
  LlamaModel,
} from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOptions, defaultThreads, llamaOptions, type LlamaTuning } from './llama-model';
import { adoptSystemPrefix, SystemPrefix } from './system-prefix';
import { ensureTinyGguf } from './tiny-gguf';

const SYSTEM = 'You are a careful assistant for lighthouse keepers.';
const OTHER_SYSTEM = 'You translate texts.';
const tuning: LlamaTuning = {
  gpu: false,
  sequences: 2,
  contextSize: 512,
  threads: defaultThreads(availableParallelism()),
};

describe('SystemPrefix (prompt caching) with the tiny GGUF', () => {
  let llama: Llama;
  let model: LlamaModel;
  let sequence: LlamaContextSequence;
  let second: LlamaContextSequence;
  let chatWrapper: ChatWrapper;
  let prefix: SystemPrefix;
  let LlamaChatClass: typeof LlamaChat;

  beforeAll(async () => {
    const nlc = await import('node-llama-cpp');
    llama = await nlc.getLlama({ ...llamaOptions(tuning), logLevel: nlc.LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath: ensureTinyGguf() });
    const context = await model.createContext(contextOptions(tuning, model.trainContextSize));
    sequence = context.getSequence();
    second = context.getSequence();
    chatWrapper = nlc.resolveChatWrapper(model);
    LlamaChatClass = nlc.LlamaChat;
    prefix = new SystemPrefix(model, chatWrapper);
  });
  afterAll(async () => {
    await llama?.dispose();
  });

  /** One short generation on the sequence; returns the prompt tokens it had to evaluate. */
  async function ask(system: string, user: string, on = sequence): Promise<number> {
    const chat = new LlamaChatClass({
      contextSequence: on,
      chatWrapper,
      autoDisposeSequence: false,
    });
    const history: ChatHistoryItem[] = [
      { type: 'system', text: system },
      { type: 'user', text: user },
      { type: 'model', response: [] },
    ];
    const before = on.tokenMeter.usedInputTokens;
    await chat.generateResponse(history, { maxTokens: 3 });
    chat.dispose({ disposeSequence: false });
    return on.tokenMeter.usedInputTokens - before;
  }
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
