import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTurn, GenerateOptions } from '../../language-model';
import { followUpStart } from './follow-up-prep';
import type { LlamaModelProvider } from './llama-model';
import { promptTokens } from './prompt-reuse';
import { openTinyLlama, startTinyProvider } from './tiny-llama.test-helper';

const SYSTEM: ChatTurn = { role: 'system', content: 'You are Inkwell, a writing assistant.' };
const ask = (n: number): ChatTurn => ({
  role: 'user',
  content: `Question ${n}: how did iron gall ink replace carbon ink in old manuscripts?`,
});

describe('a follow-up readied while the person reads the reply (tiny GGUF)', () => {
  let tiny: Awaited<ReturnType<typeof startTinyProvider>>;
  let p: LlamaModelProvider;
  /** Streams a call to its end; returns the reply and the prompt tokens it evaluated. */
  const run = async (turns: ChatTurn[], opts: GenerateOptions) => {
    const before = p.inputTokensEvaluated();
    let reply = '';
    for await (const piece of p.stream(turns, opts)) reply += piece;
    return { reply, evaluated: p.inputTokensEvaluated() - before };
  };
  /** The same model and chat wrapper, opened apart, for counting the prompts' tokens. */
  let tokens: Awaited<ReturnType<typeof openTinyLlama>>;

  /**
   * Sends the follow-up `question` to `first` and its `reply`: it may evaluate only the question's
   * own tokens (and the prompt's last token, evaluated again for its logits). Returns the tokens
   * of the follow-up's start (what was readied).
   */
  const expectOnlyTheQuestion = async (
    first: ChatTurn[],
    reply: string,
    question: ChatTurn,
    opts: GenerateOptions,
  ) => {
    const next = [...first, { role: 'assistant' as const, content: reply }, question];
    const whole = promptTokens(tokens.model, tokens.chatWrapper, next).length;
    const ready = followUpStart(tokens.model, tokens.chatWrapper, first, reply).length;
    const { evaluated } = await run(next, { ...opts, maxTokens: 1 });
    expect(evaluated).toBeLessThanOrEqual(whole - ready + 1);
    return ready;
  };

  beforeAll(async () => {
    tiny = await startTinyProvider({ sequences: 2, contextSize: 2048 });
    p = tiny.p;
    tokens = await openTinyLlama({ sequences: 1, contextSize: 256 });
  });
  afterAll(async () => {
    await tokens?.close();
    await tiny?.close();
  });

  it('evaluates only the new question once the reply is read', async () => {
    const opts = {
      maxTokens: 40,
      priority: 'interactive',
      owner: 'ann',
      conversation: true,
    } as const;
    const first = [SYSTEM, ask(1)];
    const { reply } = await run(first, opts);
    await p.followUps.prepared('ann');

    const ready = await expectOnlyTheQuestion(first, reply, ask(2), opts);
    // Without the preparation the follow-up also evaluated the end of the reply turn's template
    // (and, for text that does not tokenize back, the reply itself).
    expect(ready).toBeGreaterThan(promptTokens(tokens.model, tokens.chatWrapper, first).length);
  });

  it("stops readying when the person's next message comes at once, and answers it", async () => {
    const opts = {
      maxTokens: 40,
      priority: 'interactive',
      owner: 'bo',
      conversation: true,
    } as const;
    const first = [SYSTEM, ask(3)];
    const { reply } = await run(first, opts);
    // No wait for the preparation: the follow-up takes the sequence back and evaluates the rest.
    const next = [...first, { role: 'assistant' as const, content: reply }, ask(4)];
    const { reply: second } = await run(next, { ...opts, maxTokens: 4 });
    expect(second.length).toBeGreaterThan(0);
    await p.followUps.prepared('bo');
  });

  it('pauses while another call generates and goes on once the engine is quiet', async () => {
    const opts = {
      maxTokens: 40,
      priority: 'interactive',
      owner: 'cy',
      conversation: true,
    } as const;
    // Dee's long reply generates while Cy's ends: Cy's preparation yields to it.
    const stopDee = new AbortController();
    let deeStarted!: () => void;
    const deeGenerating = new Promise<void>((r) => (deeStarted = r));
    const dee = (async () => {
      for await (const _ of p.stream([SYSTEM, ask(5)], {
        maxTokens: 1000,
        priority: 'interactive',
        owner: 'dee',
        conversation: true,
        signal: stopDee.signal,
      }))
        deeStarted();
    })().catch(() => {});
    await deeGenerating;
    const first = [SYSTEM, ask(6)];
    const { reply } = await run(first, opts);
    await expect.poll(() => p.followUps.state('cy')).toBe('paused');
    stopDee.abort(new Error('enough'));
    await dee;
    await expect.poll(() => p.followUps.state('cy')).toBe('none');

    await expectOnlyTheQuestion(first, reply, ask(7), opts);
  });
});
