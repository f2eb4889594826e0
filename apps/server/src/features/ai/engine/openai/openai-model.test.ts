import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import {
  startOpenAITestServer,
  type OpenAITestServer,
} from '../../../../../test/openai-test-server';
import { generate } from '../../language-model';
import { OpenAIModel } from './openai-model';

describe('openai provider against a local OpenAI-compatible server', () => {
  let ai: OpenAITestServer;
  beforeAll(async () => {
    ai = await startOpenAITestServer({ apiKey: 'sk-test' });
  });
  afterAll(() => ai?.close());

  const model = (over: Partial<ConstructorParameters<typeof OpenAIModel>[0]> = {}) =>
    new OpenAIModel({ baseUrl: ai.url, apiKey: 'sk-test', model: 'm', timeoutMs: 1000, ...over });

  it('streams pieces, sends the turns, the key and a bounded max_tokens', async () => {
    const pieces: string[] = [];
    for await (const p of model().stream([{ role: 'user', content: 'alpha beta gamma' }], {
      maxTokens: 7,
    })) {
      pieces.push(p);
    }
    expect(pieces.join('')).toBe('You said: alpha beta gamma');
    expect(pieces.length).toBeGreaterThan(2);
    expect(ai.requests.at(-1)).toMatchObject({ model: 'm', stream: true, max_tokens: 7 });
    expect(ai.headers.at(-1)!.authorization).toBe('Bearer sk-test');
    expect(model().status()).toEqual({
      available: true,
      state: 'ready',
      name: `openai:m@${ai.url}`,
    });
  });

  it("sends llama-server's cache_prompt and the call's slot as id_slot, only when asked to", async () => {
    const turns = [{ role: 'user' as const, content: 'pinned' }];
    await generate(model({ cachePrompt: true }), turns, { slot: 1 });
    expect(ai.requests.at(-1)).toMatchObject({ cache_prompt: true, id_slot: 1 });
    await generate(model({ cachePrompt: true }), turns);
    expect(ai.requests.at(-1)).not.toHaveProperty('id_slot');
    await generate(model({ cachePrompt: false }), turns, { slot: 1 });
    expect(ai.requests.at(-1)).not.toHaveProperty('id_slot');
    expect(ai.requests.at(-1)).not.toHaveProperty('cache_prompt');
  });

  it('maps failures to clear errors: what to do for the user, what to fix for the operator', async () => {
    const turns = [{ role: 'user' as const, content: 'x' }];
    await expect(generate(model({ apiKey: 'wrong' }), turns)).rejects.toMatchObject({
      statusCode: 503,
      message: MODEL_UNAVAILABLE_MESSAGE,
      detail: /AI_API_KEY/,
    });
    ai.setFailure({ delayMs: 1500 });
    await expect(generate(model(), turns)).rejects.toMatchObject({
      statusCode: 504,
      message: 'The assistant took too long to answer. Please try again.',
      detail: /AI_TIMEOUT_MS/,
    });
    ai.setFailure({ status: 503 });
    await expect(generate(model(), turns)).rejects.toMatchObject({
      statusCode: 502,
      message: 'The assistant could not finish its answer. Please try again.',
      detail: /HTTP 503/,
    });
    ai.setFailure({ dieAfterPieces: 1 });
    await expect(generate(model(), turns)).rejects.toMatchObject({
      statusCode: 502,
      detail: /closed the connection/,
    });
    ai.setFailure({});
    const gone = await startOpenAITestServer();
    await gone.close();
    const refused = new OpenAIModel({ baseUrl: gone.url, model: 'm', timeoutMs: 1000 });
    await expect(generate(refused, turns)).rejects.toMatchObject({
      statusCode: 503,
      message: MODEL_UNAVAILABLE_MESSAGE,
      detail: /AI_BASE_URL/,
    });
    // The failed connection is remembered: the model is unreachable until a check succeeds.
    expect(refused.status()).toMatchObject({ state: 'unreachable', available: false });
  });

  it('checks its server with backoff: unreachable while it is down, ready once it answers', async () => {
    const server = await startOpenAITestServer();
    const changes: boolean[] = [];
    const watched = new OpenAIModel({
      baseUrl: server.url,
      model: 'm',
      timeoutMs: 1000,
      health: { intervalMs: 60_000, backoff: { minMs: 10, maxMs: 40 } },
      onHealthChange: (up) => changes.push(up),
    });
    try {
      watched.start();
      await expect.poll(() => watched.status().lastOkAt).toBeInstanceOf(Date);
      await server.stop();
      // A check now (the Admin page's "Retry now") finds the server down.
      expect(watched.retryNow()).toBe(true);
      await expect.poll(() => watched.status().state).toBe('unreachable');
      expect(watched.status().reason).toMatch(/cannot be reached .*AI_BASE_URL/);
      await server.restart();
      await expect.poll(() => watched.status().state).toBe('ready');
      expect(changes).toEqual([false, true]);
    } finally {
      await watched.close();
      await server.close();
    }
  });

  it('stops when the caller aborts', async () => {
    ai.setFailure({ pieceDelayMs: 30 });
    ai.setReply(() => Array.from({ length: 50 }, (_, i) => `${i} `));
    const controller = new AbortController();
    const got: string[] = [];
    const before = ai.aborted();
    await expect(
      (async () => {
        for await (const p of model().stream([{ role: 'user', content: 'x' }], {
          signal: controller.signal,
        })) {
          got.push(p);
          if (got.length === 2) controller.abort(new Error('stop'));
        }
      })(),
    ).rejects.toThrow('stop');
    expect(got.length).toBe(2);
    await expect.poll(() => ai.aborted()).toBeGreaterThan(before);
    ai.setFailure({});
  });

  it("looks the server's model up once for every caller; one leaving does not send the others to 'default'", async () => {
    ai.setReply(() => 'fine');
    let lookups = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const fetchHeld: typeof fetch = async (url, init) => {
      if (String(url).endsWith('/models')) {
        lookups++;
        const signal = init?.signal;
        // As a real fetch does: a lookup stops when its own signal aborts.
        await Promise.race([
          held,
          new Promise((_, reject) =>
            signal?.addEventListener('abort', () => reject(signal.reason as Error)),
          ),
        ]);
      }
      return fetch(url, init);
    };
    const shared = model({ model: undefined, fetch: fetchHeld });
    const turns = [{ role: 'user' as const, content: 'which model?' }];
    const leaving = new AbortController();
    const left = generate(shared, turns, { signal: leaving.signal });
    const staying = generate(shared, turns);
    await expect.poll(() => lookups).toBe(1);
    leaving.abort(new Error('left'));
    await expect(left).rejects.toThrow('left');
    release();
    await staying;
    expect(lookups).toBe(1);
    expect(ai.requests.at(-1)!.model).toBe('test-model');
  });

  it('asks for the model again after a refused lookup (the server starting)', async () => {
    let lookups = 0;
    const fetchStarting: typeof fetch = async (url, init) => {
      if (String(url).endsWith('/models') && ++lookups === 1)
        return new Response('{"error":"loading"}', { status: 503 });
      return fetch(url, init);
    };
    const starting = model({ model: undefined, fetch: fetchStarting });
    const turns = [{ role: 'user' as const, content: 'which model?' }];
    await generate(starting, turns);
    expect(ai.requests.at(-1)!.model).toBe('default');
    await generate(starting, turns);
    expect(ai.requests.at(-1)!.model).toBe('test-model');
    expect(lookups).toBe(2);
  });
});
