import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { startModelDownloadHost, type ModelDownloadHost } from '../../../test/model-download-host';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { ensureTinyGguf } from './engine/llama/tiny-gguf';

/**
 * The embedded model's life as users see it through GET /api/ai/status and the AI endpoints:
 * downloading (503 with the percentage and Retry-After), then loading and ready; and the
 * scheduler in front of it (a chat interrupts a summary on a one-sequence model).
 */
const statusOf = async (server: TestServer, token: string) =>
  (await (await server.request('/api/ai/status', { token })).json()) as {
    state: string;
    progress: number | null;
    reason: string | null;
  };

describe('the model status while the embedded model downloads and loads', () => {
  let host: ModelDownloadHost;
  let server: TestServer;
  beforeAll(async () => {
    host = await startModelDownloadHost(readFileSync(ensureTinyGguf()));
    server = await startTestServer({ env: { MODEL: host.url, MODEL_DOWNLOAD: 'auto' } });
  });
  afterAll(async () => {
    host.finish();
    await server?.close();
    await host?.close();
  });

  it('says downloading with the percentage, answers 503 with Retry-After, then becomes ready', async () => {
    const user = await registerUser(server);
    // The host sends half the file and holds the rest: the status says so once the half is in
    // (it says 0 % from the request's start until the first bytes arrive).
    await expect
      .poll(async () => {
        const s = await statusOf(server, user.token);
        return s.state === 'downloading' && (s.progress ?? 0) >= 40;
      })
      .toBe(true);
    const downloading = await statusOf(server, user.token);
    expect(downloading.state).toBe('downloading');
    expect(downloading.progress).toBeGreaterThanOrEqual(40);
    expect(downloading.progress).toBeLessThan(60);

    const chat = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'hi' },
    });
    expect(chat.status).toBe(503);
    expect(chat.headers.get('retry-after')).toBe('30');
    expect(((await chat.json()) as { error: string }).error).toMatch(
      /^No language model is available: the model is downloading \(\d+%\)/,
    );

    host.finish();
    // A chat sent as soon as the download is over waits for the model to load instead of failing.
    await expect
      .poll(async () => (await statusOf(server, user.token)).state, { timeout: 20_000 })
      .not.toBe('downloading');
    const early = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'hi again' },
    });
    expect(early.status).toBe(200);
    expect(await statusOf(server, user.token)).toMatchObject({
      state: 'ready',
      progress: null,
      reason: null,
    });
  }, 60_000);
});

describe('the scheduler in front of the embedded model (tiny GGUF, one sequence)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { MODEL_PATH: ensureTinyGguf(), LLAMA_SEQUENCES: '1', LLAMA_CONTEXT: '1024' },
    });
    await server.app.ai.whenSettled();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a chat while a summary runs, and the summary still finishes', async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    const doc = Array.from({ length: 400 }, (_, i) => `Line ${i} of the logbook.`).join('\n\n');
    const summary = await openEventStream(server.url, {
      path: '/api/summarize',
      token: a.token,
      body: await multipart({}, { name: 'log.txt', bytes: Buffer.from(doc) }),
    });
    const first = await summary.waitFor(
      (e) => e.event === 'progress' && (e.data as { done: number }).done >= 1,
    );
    expect((first.data as { total: number }).total).toBeGreaterThan(2);
    const chat = await server.request('/api/chat', {
      method: 'POST',
      token: b.token,
      json: { text: 'hello' },
    });
    expect(chat.status).toBe(200);
    const chatDoneAt = performance.now();
    const done = await summary.waitFor((e) => e.event === 'done');
    expect(done.data).toMatchObject({ summary: expect.any(String) });
    // The chat did not wait for the whole summary.
    expect(chatDoneAt).toBeLessThan(done.at);
  }, 120_000);
});
