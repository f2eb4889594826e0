import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@inkwell/contract';
import {
  startSlowModelServer,
  type SlowCall,
  type SlowModelServer,
} from '../../../test/slow-model-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { readChatStream } from './chat-stream.test-helper';

/**
 * Issue 36: New Topic and account deletion stop the user's replies still being written, at the
 * model: the model server sees the request go (its connection closed) and generates no more
 * tokens, though the reply was allowed 1,024 (a minute at this model's speed). On the server
 * that generates it, at once; from another app server, at the generating server's next save.
 */
async function startModel() {
  return startSlowModelServer({
    promptTokensPerSecond: 50_000,
    generatedTokensPerSecond: 20,
    replyTokens: 10_000,
    slots: 2,
  });
}

/** A reply being generated on `server`, with tokens coming from the model. */
async function replyInFlight(server: TestServer, model: SlowModelServer, token: string) {
  const before = model.calls.length;
  const res = await server.request('/api/chat', {
    method: 'POST',
    token,
    json: { text: 'Tell me everything about lighthouses.' },
    headers: { accept: 'text/event-stream' },
  });
  expect(res.status).toBe(200);
  await expect.poll(() => model.calls.length, { timeout: 20_000 }).toBe(before + 1);
  const call = model.calls.at(-1)!;
  await expect.poll(() => call.generatedTokens, { timeout: 20_000 }).toBeGreaterThan(0);
  return { res, call };
}

/** The model server saw the request go: ended early, no token after. */
async function expectStoppedAtModel(call: SlowCall) {
  await expect.poll(() => call.endedAt, { timeout: 20_000 }).toBeDefined();
  expect(call.aborted).toBe(true);
  expect(call.generatedTokens).toBeLessThan(call.body.max_tokens!);
}

async function history(server: TestServer, token: string): Promise<ChatMessage[]> {
  const res = await server.request('/api/chat/history', { token });
  return ((await res.json()) as { messages: ChatMessage[] }).messages;
}

const newTopic = (server: TestServer, token: string) =>
  server.request('/api/clearAllHistories', { method: 'POST', token });

const deleteAccount = (server: TestServer, user: { token: string; password: string }) =>
  server.request('/api/delete_account', {
    method: 'DELETE',
    token: user.token,
    json: { current_password: user.password },
  });

describe.each(testDialects())(
  'New Topic and account deletion stop live replies (%s)',
  (dialect) => {
    let model: SlowModelServer;
    let server: TestServer;

    beforeAll(async () => {
      model = await startModel();
      server = await startTestServer({
        dialect,
        env: { AI_BASE_URL: model.url, AI_PARALLEL: '2' },
      });
    });
    afterAll(async () => {
      await server?.close();
      await model?.close();
    });

    it('New Topic stops the reply at the model; the new conversation is empty', async () => {
      const user = await registerUser(server);
      const { res, call } = await replyInFlight(server, model, user.token);
      expect((await newTopic(server, user.token)).status).toBe(200);
      await expectStoppedAtModel(call);
      expect((await readChatStream(res)).done?.stopped).toBe(true);
      expect(await history(server, user.token)).toEqual([]);
      expect(model.calls.at(-1)).toBe(call);
    });

    it("deleting the account stops the user's reply at the model", async () => {
      const user = await registerUser(server);
      const { res, call } = await replyInFlight(server, model, user.token);
      expect((await deleteAccount(server, user)).status).toBe(200);
      await expectStoppedAtModel(call);
      expect((await readChatStream(res)).done?.stopped).toBe(true);
      expect(model.calls.at(-1)).toBe(call);
    });

    it("leaves another user's reply alone", async () => {
      const [user, other] = [await registerUser(server), await registerUser(server)];
      const mine = await replyInFlight(server, model, user.token);
      const theirs = await replyInFlight(server, model, other.token);
      expect((await newTopic(server, user.token)).status).toBe(200);
      await expectStoppedAtModel(mine.call);
      expect(theirs.call.endedAt).toBeUndefined();
      expect((await history(server, other.token)).at(-1)).toMatchObject({ streaming: true });
      expect((await newTopic(server, other.token)).status).toBe(200);
      await expectStoppedAtModel(theirs.call);
    });
  },
);

describe.runIf(process.env.TEST_DATABASE_URL)(
  'New Topic and account deletion on another app server stop live replies',
  () => {
    let model: SlowModelServer;
    let a: TestServer;
    let b: TestServer;

    beforeAll(async () => {
      model = await startModel();
      // Replies saved every 200 ms: the generating server learns of the change that soon.
      const env = { AI_BASE_URL: model.url, AI_PARALLEL: '2', JOB_STALE_MS: '2000' };
      a = await startTestServer({ dialect: 'postgres', env });
      b = await startTestServer({ sharing: a, env });
    });
    afterAll(async () => {
      await b?.stop();
      await a?.close();
      await model?.close();
    });

    it('New Topic on one server stops the reply the other generates', async () => {
      const user = await registerUser(a);
      const { res, call } = await replyInFlight(a, model, user.token);
      expect((await newTopic(b, user.token)).status).toBe(200);
      await expectStoppedAtModel(call);
      expect((await readChatStream(res)).done?.stopped).toBe(true);
      expect(await history(a, user.token)).toEqual([]);
    });

    it('deleting the account on one server stops the reply the other generates', async () => {
      const user = await registerUser(a);
      const { res, call } = await replyInFlight(a, model, user.token);
      expect((await deleteAccount(b, user)).status).toBe(200);
      await expectStoppedAtModel(call);
      expect((await readChatStream(res)).done?.stopped).toBe(true);
    });
  },
);
