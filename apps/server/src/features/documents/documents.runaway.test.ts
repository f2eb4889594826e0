import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import type { OpenAIRequestBody } from '../../../test/openai-test-server';
import { startSlowModelServer, type SlowModelServer } from '../../../test/slow-model-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { postForm } from './test-helpers';

/**
 * A document action is many model calls, three at a time. When one of them fails (the model
 * server refuses a part with 400, as llama-server refuses a prompt over its context) or the job
 * is cancelled, its sibling calls stop at the model (their connections close) or, waiting at
 * the scheduler (one model slot, the default), never reach it, and no further call starts: counted at a real OpenAI-compatible server, where the siblings would otherwise run
 * for minutes. A later job of the same user then reaches the model alone.
 */
const paragraphs = Array.from(
  { length: 400 },
  (_, i) =>
    `Entry ${i + 1}: the keeper logged item-${i + 1} at dawn, noting wind, tide and the state of the lamp in detail.`,
);
const DOCUMENT = paragraphs.join('\n\n');
/** In the first part of the document only. */
const FIRST_PART = 'item-1 ';
/** The later job's document: its one call is answered with one token. */
const QUICK = 'quick-note';
const REFUSAL = 'the request exceeds the available context size';

const sent = (body: OpenAIRequestBody) => body.messages.map((m) => m.content).join('\n');

describe.each(testDialects())(
  'a failed or cancelled document action stops its model calls (%s)',
  (dialect) => {
    let model: SlowModelServer;
    let server: TestServer;
    let token: string;
    /** Whether the part holding FIRST_PART is refused (once three calls are at the model). */
    let refuseFirstPart = false;

    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((r) => setTimeout(r, 10));
    };

    beforeAll(async () => {
      model = await startSlowModelServer({
        promptTokensPerSecond: 50_000,
        // Each part's reply takes a minute or more: a sibling that ends within the test was stopped.
        generatedTokensPerSecond: 4,
        replyTokens: (body) => (sent(body).includes(QUICK) ? 1 : 10_000),
        slots: 4,
        refuse: async (body) => {
          if (!refuseFirstPart || !sent(body).includes(FIRST_PART)) return undefined;
          // Refused while its two siblings are at the model.
          await until(() => model.calls.length >= 3);
          return REFUSAL;
        },
      });
      server = await startTestServer({
        dialect,
        // Four slots: document work takes three, the three calls an action runs at once.
        env: { AI_BASE_URL: model.url, AI_PARALLEL: '4', AI_CONTEXT_TOKENS: '1024' },
      });
      token = (await registerUser(server)).token;
    });
    afterAll(async () => {
      await server?.close();
      await model?.close();
    });
    beforeEach(() => {
      model.calls.length = 0;
      refuseFirstPart = false;
    });

    /** The first part refused, the two others stopped at the model, and nothing after. */
    const expectSiblingsStopped = async () => {
      await expect
        .poll(() => model.calls.filter((c) => c.endedAt !== undefined).length, { timeout: 20_000 })
        .toBe(3);
      expect(model.calls).toHaveLength(3);
      expect(model.calls.filter((c) => c.aborted)).toHaveLength(2);
    };

    /** A later job of the same user: the model sees its one call and nothing else. */
    const expectModelFreeForNextJob = async () => {
      const before = model.calls.length;
      const res = await postForm(server, '/api/summarize', token, {
        file: { name: 'note.txt', bytes: `A ${QUICK} about the lamp.` },
      });
      expect(res.status).toBe(200);
      expect(model.calls.slice(before).map((c) => sent(c.body).includes(QUICK))).toEqual([true]);
    };

    it('a full summary whose first part is refused stops the other parts at once', async () => {
      refuseFirstPart = true;
      const res = await postForm(server, '/api/summarize', token, {
        file: { name: 'log.txt', bytes: DOCUMENT },
        fields: { mode: 'full' },
      });
      expect(res.status).toBe(502);
      expect(model.calls.filter((c) => c.refused)).toHaveLength(1);
      await expectSiblingsStopped();
      await expectModelFreeForNextJob();
    }, 60_000);

    it('a file translation whose first part is refused stops the other parts at once', async () => {
      refuseFirstPart = true;
      const res = await postForm(server, '/api/translate', token, {
        file: { name: 'log.txt', bytes: DOCUMENT },
        fields: { target_language: 'French' },
      });
      expect(res.status).toBe(502);
      await expectSiblingsStopped();
      await expectModelFreeForNextJob();
    }, 60_000);

    it('a cancelled summary stops its calls at the model and starts none after', async () => {
      const stream = await openEventStream(server.url, {
        path: '/api/summarize',
        token,
        body: await multipart({ mode: 'full' }, { name: 'log.txt', bytes: Buffer.from(DOCUMENT) }),
      });
      const { id } = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
      await expect.poll(() => model.calls.length, { timeout: 20_000 }).toBe(3);
      const cancel = await server.request(`/api/jobs/${id}`, { method: 'DELETE', token });
      expect(cancel.status).toBe(200);
      await stream.ended;
      await expect
        .poll(() => model.calls.filter((c) => c.aborted).length, { timeout: 20_000 })
        .toBe(3);
      expect(model.calls).toHaveLength(3);
      await expectModelFreeForNextJob();
    }, 60_000);
  },
);

describe.each(testDialects())(
  'at the default single model slot, a failed part drops its queued siblings (%s)',
  (dialect) => {
    let model: SlowModelServer;
    let server: TestServer;
    let token: string;
    let refuseNext = false;

    beforeAll(async () => {
      model = await startSlowModelServer({
        promptTokensPerSecond: 50_000,
        generatedTokensPerSecond: 200,
        replyTokens: 1,
        refuse: () => {
          if (!refuseNext) return undefined;
          refuseNext = false;
          return REFUSAL;
        },
      });
      server = await startTestServer({
        dialect,
        env: { AI_BASE_URL: model.url, AI_CONTEXT_TOKENS: '1024' },
      });
      token = (await registerUser(server)).token;
    });
    afterAll(async () => {
      await server?.close();
      await model?.close();
    });

    it('the model sees the refused part, then only the next job', async () => {
      refuseNext = true;
      const res = await postForm(server, '/api/summarize', token, {
        file: { name: 'log.txt', bytes: DOCUMENT },
        fields: { mode: 'full' },
      });
      expect(res.status).toBe(502);
      const next = await postForm(server, '/api/summarize', token, {
        file: { name: 'note.txt', bytes: `A ${QUICK} about the lamp.` },
      });
      expect(next.status).toBe(200);
      expect(
        model.calls.map((c) => (c.refused ? 'refused' : sent(c.body).includes(QUICK))),
      ).toEqual(['refused', true]);
    }, 60_000);
  },
);
