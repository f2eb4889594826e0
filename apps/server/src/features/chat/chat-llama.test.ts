import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_UNAVAILABLE_MESSAGE } from '@inkwell/contract';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { ensureTinyGguf } from '../ai';
import { openChatStream, readChatStream } from './chat-stream.test-helper';

const settle = (server: TestServer) => server.app.ai.whenSettled();

describe('chat over HTTP with the embedded llama provider (tiny GGUF)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // A small context keeps replies short (the reply bound is a quarter of it): random weights never stop.
    server = await startTestServer({
      env: { MODEL_PATH: ensureTinyGguf(), PROMPT_LIMIT: '3', LLAMA_CONTEXT: '1024' },
    });
    expect(await settle(server)).toMatchObject({ available: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('streams a reply, stores it and counts it; the reply of a client that hung up goes on', async () => {
    const user = await registerUser(server);
    const res = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'Hello model' },
      headers: { accept: 'text/event-stream' },
    });
    const { tokens, done, error } = await readChatStream(res);
    expect(error).toBeUndefined();
    expect(tokens.length).toBeGreaterThan(0);
    expect(done).toEqual({ response: tokens.join(''), current: 1, max: 3 });

    const stream = await openChatStream(server.url, user.token, 'a long one');
    stream.hangUp();
    // The reply whose client left goes on to its end (issue 26), stored and counted.
    await expect
      .poll(
        async () => {
          const res = await server.request('/api/chat/history', { token: user.token });
          const { messages } = (await res.json()) as { messages: { streaming?: boolean }[] };
          return messages.length === 4 && !messages.some((m) => m.streaming);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const next = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'next' },
    });
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ current: 3, max: 3 });
    const history = (await (
      await server.request('/api/chat/history', { token: user.token })
    ).json()) as {
      messages: unknown[];
    };
    expect(history.messages).toHaveLength(6);
  }, 90_000);
});

describe('chat without a usable model', () => {
  it('answers 503 in the user’s words (the setting to fix goes to the log), and never calls a model', async () => {
    const server = await startTestServer();
    try {
      const user = await registerUser(server);
      const res = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        json: { text: 'hi' },
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toBe(MODEL_UNAVAILABLE_MESSAGE);
      expect(server.app.ai.status().reason).toMatch(/MODEL_DOWNLOAD=off.*MODEL_PATH.*AI_BASE_URL/);
      expect(await (await server.request('/api/chat/usage', { token: user.token })).json()).toEqual(
        { current: 0, max: 20 },
      );
    } finally {
      await server.close();
    }
  });

  it('starts even when the model download fails, and says what to do', async () => {
    // A port nothing listens on: the download fails at once, like a machine without internet.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const server = await startTestServer({
      env: { MODEL: `http://127.0.0.1:${port}/models/m.gguf`, MODEL_DOWNLOAD: 'auto' },
    });
    try {
      expect(await settle(server)).toMatchObject({
        available: false,
        name: 'llama:m.gguf',
        reason: expect.stringMatching(/could not download the model .*MODEL_PATH/),
      });
      const user = await registerUser(server);
      const res = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        json: { text: 'hi' },
      });
      expect(res.status).toBe(503);
    } finally {
      await server.close();
    }
  });
});
