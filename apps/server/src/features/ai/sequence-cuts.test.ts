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
import { SequenceCuts } from './sequence-cuts';
import { SystemPrefix } from './system-prefix';
import { ensureTinyGguf } from './tiny-gguf';

const SYSTEM = 'You are a careful assistant for lighthouse keepers.';
const tuning: LlamaTuning = {
  gpu: false,
  sequences: 3,
  contextSize: 4096,
  threads: defaultThreads(availableParallelism()),
};

describe('SequenceCuts with the tiny GGUF: a cut while other sequences generate', () => {
  let llama: Llama;
  let model: LlamaModel;
  let chatWrapper: ChatWrapper;
  let LlamaChatClass: typeof LlamaChat;
  let sequences: LlamaContextSequence[];
  let prefix: SystemPrefix;
  let generating = 0;
  const cuts = new SequenceCuts(() => generating > 0);

  beforeAll(async () => {
    const nlc = await import('node-llama-cpp');
    llama = await nlc.getLlama({ ...llamaOptions(tuning), logLevel: nlc.LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath: ensureTinyGguf() });
    const context = await model.createContext({
      ...contextOptions(tuning, model.trainContextSize),
      batching: {
        itemPrioritizationStrategy: ({ items }) => {
          cuts.runPending();
          return items.map((item) => ({ item, processAmount: item.tokens.length }));
        },
      },
    });
    sequences = [0, 1, 2].map(() => context.getSequence());
    chatWrapper = nlc.resolveChatWrapper(model);
    LlamaChatClass = nlc.LlamaChat;
    prefix = new SystemPrefix(model, chatWrapper, (s, keep) => cuts.cut(s, keep));
  });
  afterAll(async () => {
    await llama?.dispose();
  });

  /** A generation on `on`; returns the prompt tokens it evaluated. */
  async function ask(on: LlamaContextSequence, user: string, maxTokens: number) {
    const chat = new LlamaChatClass({
      contextSequence: on,
      chatWrapper,
      autoDisposeSequence: false,
    });
    const history: ChatHistoryItem[] = [
      { type: 'system', text: SYSTEM },
      { type: 'user', text: user },
      { type: 'model', response: [] },
    ];
    const before = on.tokenMeter.usedInputTokens;
    generating++;
    try {
      await chat.generateResponse(history, { maxTokens });
    } finally {
      generating--;
      chat.dispose({ disposeSequence: false });
    }
    return on.tokenMeter.usedInputTokens - before;
  }

  it('cuts between two decodes instead of waiting for the other replies to end', async () => {
    const [a, b, c] = sequences as [
      LlamaContextSequence,
      LlamaContextSequence,
      LlamaContextSequence,
    ];
    const question = 'my secret question about the harbour';
    const whole = await ask(c, question, 4);
    expect(model.detokenize(c.contextTokens)).toContain('secret');

    let longRepliesEnded = 0;
    const long = [a, b].map((s, i) =>
      ask(s, `reply ${i} at length`, 1500).then(() => longRepliesEnded++),
    );
    // Once both long replies are generating, the context's decode loop holds its lock throughout.
    await expect
      .poll(() => Math.min(a.nextTokenIndex, b.nextTokenIndex), { timeout: 20_000 })
      .toBeGreaterThan(60);

    await prefix.keepOnly(c, SYSTEM);
    expect(longRepliesEnded).toBe(0);
    expect(c.contextTokens).toEqual(prefix.tokens(SYSTEM));
    expect(model.detokenize(c.contextTokens)).not.toContain('secret');
    // The kept system message serves the next call: only the question is evaluated again, and
    // that call too is done before the long replies.
    expect(await ask(c, question, 4)).toBe(whole - prefix.tokens(SYSTEM).length);
    expect(longRepliesEnded).toBe(0);

    // Emptied (nothing kept): the cache's cells of the sequence are dropped, and it serves again.
    await cuts.cut(c, 0);
    expect(longRepliesEnded).toBe(0);
    expect(c.nextTokenIndex).toBe(0);
    expect(await ask(c, question, 4)).toBe(whole);
    await Promise.all(long);
    expect(cuts.waiting).toBe(0);
  });

  it('cuts through the library at once while nothing generates', async () => {
    const c = sequences[2]!;
    await ask(c, 'a question', 4);
    await prefix.keepOnly(c, SYSTEM);
    expect(c.contextTokens).toEqual(prefix.tokens(SYSTEM));
    expect(cuts.waiting).toBe(0);
  });
});
