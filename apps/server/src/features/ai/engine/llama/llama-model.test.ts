import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../language-model';
import { loadConfig } from '../../../../config';
import {
  defaultThreads,
  LlamaModelProvider,
  tuningFromConfig,
  type LlamaTuning,
} from './llama-model';
import { ensureTinyGguf, tinyGgufBytes } from './tiny-gguf';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const tuning = (over: Partial<LlamaTuning> = {}): LlamaTuning => ({
  gpu: false,
  sequences: 2,
  contextSize: 512,
  threads: defaultThreads(availableParallelism()),
  ...over,
});

describe('llama threads', () => {
  it('leaves one core to the event loop, and uses at least one', () => {
    expect([1, 2, 4, 8].map(defaultThreads)).toEqual([1, 1, 3, 7]);
  });

  it('takes LLAMA_THREADS when an operator sets it, the default otherwise', () => {
    const config = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test', JWT_SECRET: 'x'.repeat(64), ...env });
    expect(tuningFromConfig(config({ LLAMA_THREADS: '6' })).threads).toBe(6);
    expect(tuningFromConfig(config({ LLAMA_THREADS: '' })).threads).toBe(
      defaultThreads(availableParallelism()),
    );
    expect(() => config({ LLAMA_THREADS: '0' })).toThrow(/LLAMA_THREADS/);
  });

  it('sizes the sequences from memory unless LLAMA_SEQUENCES names a number', () => {
    const config = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: '/tmp/inkwell-cfg-test', JWT_SECRET: 'x'.repeat(64), ...env });
    expect(tuningFromConfig(config({})).sequences).toBe('auto');
    expect(tuningFromConfig(config({ LLAMA_SEQUENCES: '3' })).sequences).toBe(3);
    expect(() => config({ LLAMA_SEQUENCES: 'many' })).toThrow(/LLAMA_SEQUENCES/);
    expect(() => config({ LLAMA_SEQUENCES: '0' })).toThrow(/LLAMA_SEQUENCES/);
  });
});

describe('llama provider with the tiny GGUF', () => {
  let dataDir: string;
  let tiny: string;
  const providers: LlamaModelProvider[] = [];
  const provider = async (over: Partial<LlamaTuning> = {}, modelPath = tiny) => {
    const p = new LlamaModelProvider(
      { MODEL_PATH: modelPath, MODEL_DOWNLOAD: 'off', dataDir },
      log,
      tuning(over),
    );
    providers.push(p);
    p.start();
    await p.whenSettled();
    return p;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-llama-'));
    tiny = ensureTinyGguf();
  });
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads in the background and streams a bounded number of pieces', async () => {
    const p = new LlamaModelProvider(
      { MODEL_PATH: tiny, MODEL_DOWNLOAD: 'off', dataDir },
      log,
      tuning(),
    );
    providers.push(p);
    p.start();
    expect(p.status()).toMatchObject({ available: false, state: 'loading', reason: /loading/ });
    await expect(generate(p, [{ role: 'user', content: 'hi' }])).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(await p.whenSettled()).toEqual({
      available: true,
      state: 'ready',
      name: 'llama:tiny-llama-v2.gguf',
    });
    expect(p.contextTokens()).toBeGreaterThanOrEqual(512);
    expect(p.countTokens('hello world')).toBeGreaterThan(0);
    const pieces: string[] = [];
    for await (const piece of p.stream(
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'Hello' },
      ],
      { maxTokens: 12 },
    )) {
      pieces.push(piece);
    }
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.length).toBeLessThanOrEqual(12);
  });

  it('queues requests beyond the sequences, and cancellation frees the model', async () => {
    const p = await provider({ sequences: 1 });
    const order: string[] = [];
    const run = async (name: string, maxTokens: number) => {
      for await (const _ of p.stream([{ role: 'user', content: name }], { maxTokens })) {
        if (!order.includes(`${name}:first`)) order.push(`${name}:first`);
      }
      order.push(`${name}:end`);
    };
    await Promise.all([run('a', 20), run('b', 20), run('c', 20)]);
    // One sequence: each request starts only after the previous one ended.
    expect(order.filter((e) => e.endsWith(':end'))).toHaveLength(3);
    for (const name of ['b', 'c']) {
      const prev = name === 'b' ? 'a' : 'b';
      expect(order.indexOf(`${name}:first`)).toBeGreaterThan(order.indexOf(`${prev}:end`));
    }

    const controller = new AbortController();
    let got = 0;
    await expect(
      (async () => {
        for await (const _ of p.stream([{ role: 'user', content: 'long' }], {
          maxTokens: 100_000,
          signal: controller.signal,
        })) {
          if (++got === 3) controller.abort(new Error('client went away'));
        }
      })(),
    ).rejects.toThrow('client went away');
    // The only sequence is free again: the next request runs.
    expect(
      (await generate(p, [{ role: 'user', content: 'next' }], { maxTokens: 5 })).length,
    ).toBeGreaterThanOrEqual(0);
    // A consumer that stops early frees it too.
    for await (const _ of p.stream([{ role: 'user', content: 'x' }], { maxTokens: 50 })) break;
    await generate(p, [{ role: 'user', content: 'again' }], { maxTokens: 5 });
  });

  it('survives a prompt longer than the context', async () => {
    const p = await provider({ contextSize: 256 });
    const long = 'word '.repeat(600);
    const result = await generate(p, [{ role: 'user', content: long }], { maxTokens: 8 }).then(
      (text) => ({ text }),
      (err: unknown) => ({ err }),
    );
    if ('err' in result) expect(result.err).toMatchObject({ statusCode: 400, message: /too long/ });
    expect(p.status().available).toBe(true);
    await generate(p, [{ role: 'user', content: 'short' }], { maxTokens: 4 });
  });

  it('refuses malformed or missing model files without crashing the process', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-bad-gguf-'));
    try {
      const garbage = path.join(dir, 'garbage.gguf');
      writeFileSync(garbage, Buffer.from('this is not a model at all'));
      expect((await provider({}, garbage)).status()).toMatchObject({
        available: false,
        reason: /not a GGUF file/,
      });

      const truncated = path.join(dir, 'truncated.gguf');
      const bytes = readFileSync(tiny);
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      expect((await provider({}, truncated)).status()).toMatchObject({
        available: false,
        reason: /beyond the end/,
      });

      // Metadata that disagrees with the tensors passes the JavaScript checks; the probe catches it.
      const mismatched = path.join(dir, 'mismatched.gguf');
      const b = Buffer.from(tinyGgufBytes());
      const key = b.indexOf('llama.feed_forward_length');
      b.writeUInt32LE(96, key + 'llama.feed_forward_length'.length + 4);
      writeFileSync(mismatched, b);
      expect((await provider({}, mismatched)).status()).toMatchObject({
        available: false,
        reason: /cannot be loaded/,
      });

      expect((await provider({}, path.join(dir, 'nope.gguf'))).status()).toMatchObject({
        available: false,
        reason: /does not exist.*MODEL_PATH/,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('llama provider: people first', () => {
  let dataDir: string;
  let p: LlamaModelProvider;
  const SUMMARY = [
    { role: 'system' as const, content: 'Summarize the document.' },
    { role: 'user' as const, content: 'The document: ' + 'ink and paper, '.repeat(20) },
  ];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-llama-people-'));
    p = new LlamaModelProvider(
      { MODEL_PATH: ensureTinyGguf(), MODEL_DOWNLOAD: 'off', dataDir },
      log,
      tuning({ sequences: 2, contextSize: 4096 }),
    );
    p.start();
    await p.whenSettled();
  });
  afterAll(async () => {
    await p.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts a chat's reply before a long batch reply ends, with document work waiting for both sequences", async () => {
    expect(await p.plannedSequences()).toBe(2);
    const events: string[] = [];
    let chat: Promise<void> | undefined;
    const run = async (name: string, priority: 'batch' | 'interactive', maxTokens: number) => {
      const turns =
        priority === 'batch' ? SUMMARY : [{ role: 'user' as const, content: `Hi, ${name} here` }];
      for await (const _ of p.stream(turns, { maxTokens, priority, owner: name })) {
        if (!events.includes(`${name}:first`)) {
          events.push(`${name}:first`);
          // The chat arrives once the summary is generating, while a second summary call waits.
          if (name === 'summary1') chat = run('chat', 'interactive', 8);
        }
      }
      events.push(`${name}:end`);
    };
    await Promise.all([run('summary1', 'batch', 2000), run('summary2', 'batch', 8)]);
    await chat;
    // Batch calls hold at most one of the two sequences: the second summary call waits for the
    // first to end, while the chat takes the other sequence at once and its tokens go first.
    expect(events.indexOf('chat:first')).toBeGreaterThan(events.indexOf('summary1:first'));
    expect(events.indexOf('chat:first')).toBeLessThan(events.indexOf('summary1:end'));
    expect(events.indexOf('summary2:first')).toBeGreaterThan(events.indexOf('summary1:end'));
  });

  it('resumes an interrupted batch call on the prompt its sequence kept, for the same owner only', async () => {
    const interrupted = async (owner: string) => {
      const stop = new AbortController();
      await expect(
        (async () => {
          for await (const _ of p.stream(SUMMARY, {
            maxTokens: 500,
            priority: 'batch',
            owner,
            signal: stop.signal,
          }))
            stop.abort(new Error('preempted'));
        })(),
      ).rejects.toThrow('preempted');
    };
    const evaluated = async (owner: string) => {
      const before = p.inputTokensEvaluated();
      await generate(p, SUMMARY, { maxTokens: 4, priority: 'batch', owner });
      return p.inputTokensEvaluated() - before;
    };
    // A fresh call of another system message: the whole prompt is evaluated.
    const whole = await evaluated('nobody-yet');
    await interrupted('alice');
    // Alice's retry evaluates only what follows the kept tokens.
    expect(await evaluated('alice')).toBeLessThan(whole / 4);
    await interrupted('alice');
    // Bob's identical call cannot reuse Alice's document: only the system message is kept for him.
    expect(await evaluated('bob')).toBeGreaterThan(whole / 2);
  });
});

describe('llama provider: no chat waits for other whole replies', () => {
  let dataDir: string;
  let p: LlamaModelProvider;
  const SYSTEM = { role: 'system' as const, content: 'You are Inkwell, a writing assistant.' };
  const chat = (name: string) => [SYSTEM, { role: 'user' as const, content: `Hi, ${name} here` }];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-llama-replies-'));
    p = new LlamaModelProvider(
      { MODEL_PATH: ensureTinyGguf(), MODEL_DOWNLOAD: 'off', dataDir },
      log,
      tuning({ sequences: 3, contextSize: 4096 }),
    );
    p.start();
    await p.whenSettled();
  });
  afterAll(async () => {
    await p.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves chats one after another on the third sequence while two long replies generate', async () => {
    // A first chat leaves its system message kept; while nothing generates, the other sequences
    // are given it too.
    await generate(p, chat('first'), {
      maxTokens: 4,
      priority: 'interactive',
      owner: 'first',
      conversation: true,
    });
    await expect.poll(() => p.sequencesHolding(SYSTEM.content)).toBe(3);

    const events: string[] = [];
    const run = async (name: string, maxTokens: number, onFirst?: () => void) => {
      const before = p.inputTokensEvaluated();
      for await (const _ of p.stream(chat(name), {
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
      return p.inputTokensEvaluated() - before;
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
    // Each short chat needs the third sequence: the second one only once the first's was cut
    // back to the system message, which happens between two decodes of the long replies.
    await run('cy', 8);
    await run('dee', 8);
    await Promise.all(long);
    for (const short of ['cy:end', 'dee:end'])
      for (const longEnd of ['ada:end', 'bo:end'])
        expect(events.indexOf(short)).toBeLessThan(events.indexOf(longEnd));
  });
});
