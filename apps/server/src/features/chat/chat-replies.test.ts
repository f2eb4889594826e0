import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@inkwell/contract';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { openChatStream, readChatStream } from './chat-stream.test-helper';

/**
 * Issue 26: a reply survives Stop, a closed tab and another device. It goes on when its listener
 * leaves, is stored as it grows, is followed again from its start, and a stopped one is kept.
 */
const PIECES = 40;
const words = () => Array.from({ length: PIECES }, (_, i) => ` w${i}`);
const whole = words().join('');

describe.each(testDialects())('chat replies that outlive their request (%s)', (dialect) => {
  let ai: OpenAITestServer;
  let server: TestServer;

  beforeAll(async () => {
    ai = await startOpenAITestServer({ pieceDelayMs: 25, reply: words });
    server = await startTestServer({
      dialect,
      env: { AI_BASE_URL: ai.url, AI_MODEL: 'test-model', PROMPT_LIMIT: '5', JOB_STALE_MS: '2000' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await ai?.close();
  });

  it('goes on when its listener leaves; the page that comes back follows it to its end', async () => {
    const user = await registerUser(server);
    const stream = await openChatStream(server.url, user.token, 'long');
    stream.hangUp();
    const reply = await streamingReply(server, user.token);
    expect(reply.text.length).toBeLessThan(whole.length);
    const followed = await readChatStream(await follow(server, user.token, reply.id));
    expect(followed.error).toBeUndefined();
    expect(followed.tokens.join('')).toBe(whole);
    expect(followed.done).toEqual({ response: whole, current: 1, max: 5 });
    const stored = await history(server, user.token);
    expect(stored.map((m) => [m.role, m.text, m.stopped, m.streaming])).toEqual([
      ['user', 'long', undefined, undefined],
      ['assistant', whole, undefined, undefined],
    ]);
    // An ended reply is followed at once: its text and done.
    const again = await readChatStream(await follow(server, user.token, reply.id));
    expect(again.tokens.join('')).toBe(whole);
  });

  it('Stop keeps the question and the partial reply, marked stopped and counted', async () => {
    const user = await registerUser(server);
    const res = await server.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'stop me' },
      headers: { accept: 'text/event-stream' },
    });
    const reply = await streamingReply(server, user.token);
    const stop = await server.request(`/api/chat/replies/${reply.id}/stop`, {
      method: 'POST',
      token: user.token,
    });
    expect(stop.status).toBe(200);
    const streamed = await readChatStream(res);
    expect(streamed.done?.stopped).toBe(true);
    const stored = await history(server, user.token);
    expect(stored[1]).toMatchObject({ role: 'assistant', stopped: true });
    expect(stored[1]!.text).toBe(streamed.done!.response);
    expect(stored[1]!.text.length).toBeGreaterThan(0);
    expect(stored[1]!.text.length).toBeLessThan(whole.length);
    expect(stored[0]).toMatchObject({ role: 'user', text: 'stop me' });
    const usage = await server.request('/api/chat/usage', { token: user.token });
    expect(await usage.json()).toEqual({ current: 1, max: 5 });
  });

  it("answers 404 for another user's reply, which goes on untouched", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const res = await server.request('/api/chat', {
      method: 'POST',
      token: owner.token,
      json: { text: 'mine' },
      headers: { accept: 'text/event-stream' },
    });
    const reply = await streamingReply(server, owner.token);
    const stop = await server.request(`/api/chat/replies/${reply.id}/stop`, {
      method: 'POST',
      token: other.token,
    });
    expect(stop.status).toBe(404);
    expect((await follow(server, other.token, reply.id)).status).toBe(404);
    expect((await follow(server, owner.token, 0)).status).toBe(400);
    expect((await readChatStream(res)).done).toEqual({ response: whole, current: 1, max: 5 });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('chat replies across two app servers', () => {
  let ai: OpenAITestServer;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    ai = await startOpenAITestServer({ pieceDelayMs: 25, reply: words });
    const env = { AI_BASE_URL: ai.url, AI_MODEL: 'test-model', JOB_STALE_MS: '2000' };
    a = await startTestServer({ dialect: 'postgres', env });
    b = await startTestServer({ sharing: a, env });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
    await ai?.close();
  });

  it('a reply generated on one server is followed, and stopped, from the other', async () => {
    const user = await registerUser(a);
    const stream = await openChatStream(a.url, user.token, 'over there');
    stream.hangUp();
    const first = await streamingReply(b, user.token);
    const followed = await readChatStream(await follow(b, user.token, first.id));
    expect(followed.tokens.join('')).toBe(whole);
    expect(followed.done?.response).toBe(whole);

    const res = await a.request('/api/chat', {
      method: 'POST',
      token: user.token,
      json: { text: 'stop from b' },
      headers: { accept: 'text/event-stream' },
    });
    const second = await streamingReply(b, user.token);
    const stop = await b.request(`/api/chat/replies/${second.id}/stop`, {
      method: 'POST',
      token: user.token,
    });
    expect(stop.status).toBe(200);
    expect((await readChatStream(res)).done?.stopped).toBe(true);
    const stored = await history(b, user.token);
    expect(stored.at(-1)).toMatchObject({ id: second.id, stopped: true });
    expect(stored.at(-1)!.text.length).toBeLessThan(whole.length);
  });
});

async function history(server: TestServer, token: string): Promise<ChatMessage[]> {
  const res = await server.request('/api/chat/history', { token });
  return ((await res.json()) as { messages: ChatMessage[] }).messages;
}

/** The user's reply being generated, once it has some text. */
async function streamingReply(server: TestServer, token: string): Promise<ChatMessage> {
  let found: ChatMessage | undefined;
  await expect
    .poll(async () => {
      found = (await history(server, token)).find((m) => m.streaming && m.text.length > 0);
      return found;
    })
    .toBeTruthy();
  return found!;
}

function follow(server: TestServer, token: string, id: number) {
  return server.request(`/api/chat/replies/${id}/events`, {
    token,
    headers: { accept: 'text/event-stream' },
  });
}
