import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type ChatTurn } from '../../language-model';
import type { LlamaModelProvider } from './llama-model';
import { findGap, MIN_KEPT_AFTER_GAP } from './prompt-reuse';
import { startTinyProvider } from './tiny-llama.test-helper';

const SYSTEM: ChatTurn = { role: 'system', content: 'You are Inkwell, a writing assistant.' };
const DOC: ChatTurn = { role: 'system', content: 'Summarize the document.' };
const question = (n: number): ChatTurn => ({
  role: 'user',
  content: `Question ${n}: ${'what is ink made of, and why does it fade? '.repeat(6)}`,
});

describe('llama provider: what a sequence already evaluated is reused, never waited for', () => {
  let tiny: Awaited<ReturnType<typeof startTinyProvider>>;
  let p: LlamaModelProvider;

  beforeAll(async () => {
    tiny = await startTinyProvider({ sequences: 3, contextSize: 4096 });
    p = tiny.p;
  });
  afterAll(() => tiny?.close());

  const evaluated = async (turns: ChatTurn[], owner: string) => {
    const before = p.inputTokensEvaluated();
    const reply = await generate(p, turns, {
      maxTokens: 8,
      priority: 'interactive',
      owner,
      conversation: true,
    });
    return { tokens: p.inputTokensEvaluated() - before, reply };
  };

  it("a person's follow-up costs only the new message; another person's same prompt costs it all", async () => {
    const conversation: ChatTurn[] = [SYSTEM];
    for (let n = 0; n < 4; n++) {
      const { reply } = await evaluated([...conversation, question(n)], 'ada');
      conversation.push(question(n), { role: 'assistant', content: reply });
    }
    const followUp = [...conversation, question(4)];
    const ada = await evaluated(followUp, 'ada');
    const bo = await evaluated(followUp, 'bo');
    // Bo's sequence may hold the system message (copied), never Ada's conversation.
    expect(bo.tokens).toBeGreaterThan(4 * p.countTokens(question(0).content));
    // Ada's: the new question, and at most the last reply again (its tokens as text may differ).
    expect(ada.tokens).toBeLessThan(bo.tokens / 3);
  });

  it('a chat given a sequence that holds another prompt does not wait for the other replies', async () => {
    // Ada and Bo go on with their conversations on their kept sequences; the third sequence
    // holds a document's prompt, which Eve's chat must cut while their replies generate.
    await generate(p, [DOC, question(9)], { maxTokens: 4, priority: 'batch', owner: 'doc' });
    const events: string[] = [];
    const run = async (name: string, maxTokens: number, onFirst?: () => void) => {
      for await (const _ of p.stream([SYSTEM, question(1)], {
        maxTokens,
        priority: 'interactive',
        owner: name,
        conversation: true,
      }))
        if (!events.includes(`${name}:first`)) {
          events.push(`${name}:first`);
          onFirst?.();
        }
      events.push(`${name}:end`);
    };
    let bothLong!: () => void;
    const longStarted = new Promise<void>((r) => (bothLong = r));
    let started = 0;
    const long = ['ada', 'bo'].map((name) =>
      run(name, 1500, () => {
        if (++started === 2) bothLong();
      }),
    );
    await longStarted;
    await run('eve', 8);
    await Promise.all(long);
    expect(events.indexOf('eve:end')).toBeLessThan(events.indexOf('ada:end'));
    expect(events.indexOf('eve:end')).toBeLessThan(events.indexOf('bo:end'));
  });

  it('a follow-up whose history window dropped old exchanges keeps the later ones (no re-evaluation)', async () => {
    const conversation: ChatTurn[] = [];
    for (let n = 10; n < 14; n++) {
      const { reply } = await evaluated([SYSTEM, ...conversation, question(n)], 'cy');
      conversation.push(question(n), { role: 'assistant', content: reply });
    }
    // The window moved: the first two exchanges are left out, the last two stay.
    const cy = await evaluated([SYSTEM, ...conversation.slice(4), question(14)], 'cy');
    // The new question and at most the last reply again; not the two kept exchanges, and the
    // kept tokens shifted into place are not counted as evaluated.
    expect(cy.tokens).toBeLessThan(2 * p.countTokens(question(14).content));
    // A new topic asking an earlier question again evaluates it afresh.
    const again = await evaluated([SYSTEM, question(13)], 'cy');
    expect(again.tokens).toBeGreaterThan(0.8 * p.countTokens(question(13).content));
  });
});

describe('llama provider: one-off answers keep no sequence', () => {
  const ASK: ChatTurn = { role: 'system', content: 'Answer from the passages of the file.' };
  let tiny: Awaited<ReturnType<typeof startTinyProvider>>;
  let p: LlamaModelProvider;

  beforeAll(async () => {
    tiny = await startTinyProvider({ sequences: 2, contextSize: 4096 });
    p = tiny.p;
  });
  afterAll(() => tiny?.close());

  const evaluated = async (owner: string, conversation: boolean) => {
    const before = p.inputTokensEvaluated();
    const opts = { maxTokens: 8, priority: 'interactive', owner, conversation } as const;
    await generate(p, [ASK, question(20)], opts);
    // Read at once: a conversation's follow-up is being readied by now, a one-off's never is.
    const readying = p.followUps.state(owner);
    await p.followUps.prepared(owner);
    return { tokens: p.inputTokensEvaluated() - before, readying };
  };

  it('an answer about a file readies no follow-up and keeps nothing of its question', async () => {
    const first = await evaluated('eve', false);
    expect(first.readying).toBe('none');
    // Asked again, the question is evaluated again: its sequence kept only the system message
    // and went back to everyone (a conversation's would stay Eve's, for her next message).
    const again = await evaluated('eve', false);
    expect(again.tokens).toBeGreaterThan(0.8 * p.countTokens(question(20).content));

    const chat = await evaluated('finn', true);
    expect(chat.readying).toBe('preparing');
    // A conversation's sequence stays Finn's: his next call starts from what it holds.
    const next = await evaluated('finn', true);
    expect(next.tokens).toBeLessThan(0.2 * p.countTokens(question(20).content));
  });
});

describe('findGap', () => {
  const run = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  it('finds the block a prompt left out, and keeps what follows it', () => {
    const held = [...run(0, 10), ...run(100, 50), ...run(200, 60), ...run(900, 5)];
    const prompt = [...run(0, 10), ...run(200, 60), ...run(300, 40)];
    expect(findGap(held, prompt, 10)).toEqual({ end: 60, kept: 60 });
  });
  it('leaves a short match alone', () => {
    const held = [...run(0, 10), ...run(100, 50), ...run(200, MIN_KEPT_AFTER_GAP - 1)];
    const prompt = [...run(0, 10), ...run(200, 60)];
    expect(findGap(held, prompt, 10)).toBeUndefined();
  });
});
