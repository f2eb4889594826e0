import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import {
  startSlowModelServer,
  type SlowCall,
  type SlowModelServer,
} from '../../../test/slow-model-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';
import { postForm } from '../documents/testing';

/**
 * The scheduler over real HTTP, against a one-slot OpenAI-compatible server with fixed prompt and
 * generation speeds (test/slow-model-server.ts): chats go before document work, users' summaries
 * take turns, long work reports progress and stops when its client goes away.
 */
const report = (marker: string, kb: number) => {
  const sentences: string[] = [];
  for (let i = 0; sentences.join(' ').length < kb * 1024; i++) {
    sentences.push(
      `Sentence ${i} of the ${marker} report says the harbour grew by ${i % 17} boats.`,
    );
    if (i % 6 === 5) sentences.push('\n\n');
  }
  return sentences.join(' ');
};

const text = (c: SlowCall) => c.body.messages.map((m) => m.content).join('\n');
const isMap = (marker: string) => (c: SlowCall) =>
  text(c).includes(`${marker} report`) && text(c).includes('Summarize this part');

describe('interactive first, over HTTP against a slow one-slot model', () => {
  let model: SlowModelServer;
  let server: TestServer;
  beforeAll(async () => {
    model = await startSlowModelServer({
      promptTokensPerSecond: 20_000,
      generatedTokensPerSecond: 400,
    });
    server = await startTestServer({ env: { AI_BASE_URL: model.url, AI_PARALLEL: '1' } });
  });
  afterEach(async () => {
    await model.idle();
    model.calls.length = 0;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it("preempts a summary's call for another user's chat, then finishes the summary", async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    // The summary's first call holds the model when the chat arrives.
    const release = model.hold();
    const summary = postForm(server, '/api/summarize', a.token, {
      file: { name: 'alpha.txt', bytes: report('alpha', 100) },
    });
    await expect.poll(() => model.calls.length, { timeout: 20_000 }).toBe(1);
    const sentAt = performance.now();
    const chatting = server.request('/api/chat', {
      method: 'POST',
      token: b.token,
      json: { text: 'hello there' },
    });
    await expect.poll(() => model.calls.some((c) => text(c).includes('hello there'))).toBe(true);
    release();
    const chat = await chatting;
    expect(chat.status).toBe(200);
    const chatCall = model.calls.find((c) => text(c).includes('hello there'))!;
    // No document call started between the chat's arrival and its own start.
    const startedBetween = model.calls.filter(
      (c) => c !== chatCall && c.startedAt! > sentAt && c.startedAt! < chatCall.startedAt!,
    );
    expect(startedBetween).toEqual([]);
    // The interrupted call was the summary's, and it ran again to the end.
    const preempted = model.calls.filter((c) => c.aborted);
    expect(preempted.length).toBe(1);
    expect(model.calls.filter((c) => !c.aborted && text(c) === text(preempted[0]!))).toHaveLength(
      1,
    );
    const res = await summary;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { summary: string }).summary.length).toBeGreaterThan(0);
  }, 60_000);

  it("lets two users' summaries take turns on the model", async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    // Both summaries queue their first calls while the model is held, so neither starts alone.
    const release = model.hold();
    const both = Promise.all([
      postForm(server, '/api/summarize', a.token, {
        file: { name: 'a.txt', bytes: report('alpha', 100) },
      }),
      postForm(server, '/api/summarize', b.token, {
        file: { name: 'b.txt', bytes: report('bravo', 100) },
      }),
    ]);
    const queued = async () =>
      (
        (await (await server.request('/api/ai/status', { token: a.token })).json()) as {
          queued: number;
        }
      ).queued;
    // Three calls in flight each (one already sent to the held model).
    await expect.poll(queued, { timeout: 20_000 }).toBe(5);
    release();
    expect((await both).map((r) => r.status)).toEqual([200, 200]);
    const maps = model.calls
      .filter((c) => isMap('alpha')(c) || isMap('bravo')(c))
      .sort((x, y) => x.startedAt! - y.startedAt!)
      .map((c) => (isMap('alpha')(c) ? 'a' : 'b'));
    expect(maps.filter((m) => m === 'a').length).toBeGreaterThanOrEqual(3);
    expect(maps.filter((m) => m === 'b').length).toBeGreaterThanOrEqual(3);
    // While both have parts left, neither runs two in a row.
    const overlap = Math.min(maps.lastIndexOf('a'), maps.lastIndexOf('b'));
    for (let i = 1; i <= overlap; i++) expect(maps[i]).not.toBe(maps[i - 1]);
  }, 60_000);

  it('streams progress with the queue position, then the same body as without the stream', async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    const ahead = postForm(server, '/api/summarize', a.token, {
      file: { name: 'a.txt', bytes: report('alpha', 100) },
    });
    await expect.poll(() => model.calls.length > 0, { timeout: 10_000 }).toBe(true);
    const stream = await openEventStream(server.url, {
      path: '/api/summarize',
      token: b.token,
      body: await multipart({}, { name: 'b.txt', bytes: Buffer.from(report('bravo', 60)) }),
    });
    expect(stream.status).toBe(200);
    const done = await stream.waitFor((e) => e.event === 'done');
    const progress = stream.events
      .filter((e) => e.event === 'progress')
      .map((e) => e.data as Record<string, number>);
    expect(stream.events.map((e) => e.event).slice(0, 2)).toEqual(['job', 'progress']);
    expect(progress.some((p) => p.queued_ahead! > 0)).toBe(true);
    expect(progress.at(-1)!.done).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.done).toBeGreaterThanOrEqual(progress[i - 1]!.done!);
    expect(progress.every((p) => p.done! <= p.total!)).toBe(true);
    expect(Object.keys(done.data as object)).toEqual(['summary']);
    expect((await ahead).status).toBe(200);
  }, 60_000);

  it('goes on when its client goes away, and keeps the result', async () => {
    const user = await registerUser(server);
    const stream = await openEventStream(server.url, {
      path: '/api/summarize',
      token: user.token,
      body: await multipart({}, { name: 'a.txt', bytes: Buffer.from(report('alpha', 60)) }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    await stream.waitFor((e) => e.event === 'progress' && (e.data as { done: number }).done >= 1);
    stream.hangUp();
    const job = async () =>
      (await (await server.request(`/api/jobs/${id}`, { token: user.token })).json()) as {
        state: string;
        result: { summary: string } | null;
      };
    await expect.poll(async () => (await job()).state, { timeout: 30_000 }).toBe('done');
    expect((await job()).result!.summary.length).toBeGreaterThan(0);
    expect(model.calls.filter((c) => c.aborted)).toEqual([]);
  }, 60_000);

  it('stops every remaining call of a summary the user cancels', async () => {
    const [a, b] = [await registerUser(server), await registerUser(server)];
    const stream = await openEventStream(server.url, {
      path: '/api/summarize',
      token: a.token,
      body: await multipart({}, { name: 'a.txt', bytes: Buffer.from(report('alpha', 150)) }),
    });
    const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    await stream.waitFor((e) => e.event === 'progress' && (e.data as { done: number }).done >= 1);
    const cancel = await server.request(`/api/jobs/${id}`, { method: 'DELETE', token: a.token });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ id, state: 'cancelled' });
    const cancelledAt = performance.now();
    const ended = await stream.waitFor((e) => e.event === 'error');
    expect(ended.data).toEqual({ error: 'The work was cancelled.', status: 409 });
    await model.idle();
    // Another user's work runs to the end; none of the cancelled summary's calls starts meanwhile.
    const other = await postForm(server, '/api/summarize', b.token, {
      file: { name: 'b.txt', bytes: report('bravo', 40) },
    });
    expect(other.status).toBe(200);
    expect(model.calls.filter((c) => isMap('alpha')(c) && c.startedAt! > cancelledAt)).toEqual([]);
    const status = await (await server.request('/api/ai/status', { token: a.token })).json();
    expect(status).toMatchObject({ state: 'ready', queued: 0, reason: null, progress: null });
    // Someone else's job is not theirs to see or cancel.
    expect((await server.request(`/api/jobs/${id}`, { token: b.token })).status).toBe(404);
    expect(
      (await server.request(`/api/jobs/${id}`, { method: 'DELETE', token: b.token })).status,
    ).toBe(404);
  }, 60_000);
});
