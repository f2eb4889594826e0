import type { LlamaContextSequence, LlamaModel } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SequenceCuts } from './sequence-cuts';
import { SystemPrefix } from './system-prefix';
import { openTinyLlama } from './tiny-llama.test-helper';

const SYSTEM = 'You are a careful assistant for lighthouse keepers.';

describe('SequenceCuts with the tiny GGUF: a cut while other sequences generate', () => {
  let tiny: Awaited<ReturnType<typeof openTinyLlama>>;
  let model: LlamaModel;
  let sequences: LlamaContextSequence[];
  let prefix: SystemPrefix;
  let generating = 0;
  const cuts = new SequenceCuts(() => generating > 0);

  beforeAll(async () => {
    tiny = await openTinyLlama({
      sequences: 3,
      contextSize: 4096,
      // Called under the context lock before each decode, as the provider's strategy is.
      itemPrioritizationStrategy: ({ items }) => {
        cuts.runPending();
        return items.map((item) => ({ item, processAmount: item.tokens.length }));
      },
    });
    ({ model, sequences } = tiny);
    prefix = new SystemPrefix(model, tiny.chatWrapper, (s, keep) => cuts.cut(s, keep));
  });
  afterAll(async () => {
    await tiny?.close();
  });

  /** A generation on `on`, counted as generating while it runs; returns the prompt tokens evaluated. */
  async function ask(on: LlamaContextSequence, user: string, maxTokens: number) {
    generating++;
    try {
      return await tiny.ask(on, SYSTEM, user, maxTokens);
    } finally {
      generating--;
    }
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
