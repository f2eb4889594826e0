import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { readChatStream } from './chat-stream.test-helper';

describe.each(testDialects())(
  'chat over HTTP against an OpenAI-compatible server (%s)',
  (dialect) => {
    let ai: OpenAITestServer;
    let server: TestServer;

    beforeAll(async () => {
      ai = await startOpenAITestServer();
      server = await startTestServer({
        dialect,
        env: { AI_BASE_URL: ai.url, AI_MODEL: 'test-model', PROMPT_LIMIT: '5' },
      });
    });
    afterAll(async () => {
      await server?.close();
      await ai?.close();
    });

    const form = (text: string) => {
      const body = new FormData();
      body.set('text', text);
      return body;
    };

    it('answers a multipart question, sends the system prompt and then uses the history', async () => {
      const user = await registerUser(server);
      const first = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('hello there model'),
      });
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({
        response: 'You said: hello there model',
        current: 1,
        max: 5,
      });

      const second = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        json: { text: 'and again' },
      });
      expect(second.status).toBe(200);
      const sent = ai.requests.at(-1)!;
      expect(sent.model).toBe('test-model');
      expect(sent.max_tokens).toBeGreaterThan(0);
      expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
      expect(sent.messages[0]!.content).toMatch(/Inkwell/);
      expect(sent.messages.slice(1).map((m) => m.content)).toEqual([
        'hello there model',
        'You said: hello there model',
        'and again',
      ]);

      const history = await server.request('/api/chat/history', { token: user.token });
      const body = (await history.json()) as {
        messages: { role: string; text: string }[];
        current: number;
      };
      expect(body.current).toBe(2);
      expect(body.messages.map((m) => [m.role, m.text])).toEqual([
        ['user', 'hello there model'],
        ['assistant', 'You said: hello there model'],
        ['user', 'and again'],
        ['assistant', 'You said: and again'],
      ]);

      const cleared = await server.request('/api/clearAllHistories', {
        method: 'POST',
        token: user.token,
      });
      expect(cleared.status).toBe(200);
      await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: new URLSearchParams({ text: 'fresh' }),
      });
      expect(ai.requests.at(-1)!.messages.map((m) => m.role)).toEqual(['system', 'user']);
      const usage = await server.request('/api/chat/usage', { token: user.token });
      expect(await usage.json()).toEqual({ current: 3, max: 5 });
    });

    it('New Topic starts a new conversation: its start is in the history, and its running jobs stop', async () => {
      const user = await registerUser(server);
      const history = async () =>
        (await (await server.request('/api/chat/history', { token: user.token })).json()) as {
          started_at: string | null;
        };
      expect((await history()).started_at).toBeNull();
      // A summary that waits on the model is running when the topic changes.
      ai.setFailure({ delayMs: 60_000 });
      try {
        const body = new FormData();
        body.set('file', new Blob(['The keeper lit the lamp. '.repeat(20)]), 'lamp.txt');
        const started = await server.request('/api/summarize', {
          method: 'POST',
          token: user.token,
          body,
          headers: { Accept: 'text/event-stream' },
        });
        const jobId = started.headers.get('x-job-id')!;
        expect(jobId).toBeTruthy();
        const before = new Date().toISOString();
        const cleared = await server.request('/api/clearAllHistories', {
          method: 'POST',
          token: user.token,
        });
        expect(cleared.status).toBe(200);
        const startedAt = (await history()).started_at;
        expect(startedAt! >= before).toBe(true);
        const job = await server.request(`/api/jobs/${jobId}`, { token: user.token });
        expect(((await job.json()) as { state: string }).state).toBe('cancelled');
        await started.body?.cancel();
      } finally {
        ai.setFailure({});
      }
    });

    it('validates the text and requires a signed-in user', async () => {
      const user = await registerUser(server);
      const before = ai.requests.length;
      const anon = await server.request('/api/chat', { method: 'POST', body: form('hi') });
      expect(anon.status).toBe(401);
      const empty = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('   '),
      });
      expect(empty.status).toBe(400);
      const long = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('x'.repeat(1001)),
      });
      expect(long.status).toBe(400);
      expect(((await long.json()) as { error: string }).error).toMatch(/1000/);
      const missing = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        json: {},
      });
      expect(missing.status).toBe(400);
      const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;
      // A form far over any question's size: refused without reading it all into memory.
      const huge = new FormData();
      huge.set('text', 'hi');
      huge.set('attachment', new Blob([new Uint8Array(2 * 1024 * 1024)]), 'big.bin');
      const tooBig = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: huge,
      });
      expect(tooBig.status).toBe(413);
      expect(await errorOf(tooBig)).toBe('The message is too long.');
      const broken = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi',
      });
      expect(broken.status).toBe(400);
      expect(await errorOf(broken)).toBeTruthy();
      expect(ai.requests.length).toBe(before);

      // A small file beside the question is ignored, the question answered.
      const withFile = form('the question');
      withFile.set('attachment', new Blob(['ignored']), 'note.txt');
      const answered = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: withFile,
      });
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { response: string }).response).toBe(
        'You said: the question',
      );
    });

    it('streams the same text as the non-streaming answer', async () => {
      const user = await registerUser(server);
      ai.setReply(() => 'Streaming **works** — ünïcödé 你好 fine.');
      try {
        const plain = (await (
          await server.request('/api/chat', { method: 'POST', token: user.token, body: form('q') })
        ).json()) as { response: string };
        const res = await server.request('/api/chat', {
          method: 'POST',
          token: user.token,
          body: form('q'),
          headers: { accept: 'text/event-stream' },
        });
        expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        const { tokens, done, error } = await readChatStream(res);
        expect(error).toBeUndefined();
        expect(tokens.length).toBeGreaterThan(1);
        expect(tokens.join('')).toBe(plain.response);
        expect(done).toEqual({ response: plain.response, current: 2, max: 5 });
      } finally {
        ai.setReply((m) => `You said: ${m.at(-1)!.content.split(/\s+/).slice(0, 8).join(' ')}`);
      }
    });

    it('holds the daily cap under 10 parallel chats and answers 429 without calling the model', async () => {
      const user = await registerUser(server);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          server.request('/api/chat', {
            method: 'POST',
            token: user.token,
            body: form(`parallel ${i}`),
          }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
      const limited = results.find((r) => r.status === 429)!;
      expect(await limited.json()).toEqual({
        error: 'Rate limit exceeded. Please wait before retrying.',
      });
      const currents = await Promise.all(
        results
          .filter((r) => r.ok)
          .map(async (r) => ((await r.json()) as { current: number }).current),
      );
      expect(currents.sort()).toEqual([1, 2, 3, 4, 5]);
      const before = ai.requests.length;
      const again = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('one more'),
      });
      expect(again.status).toBe(429);
      expect(ai.requests.length).toBe(before);
    });

    it('does not count or keep a failure before the first token; keeps one after it as stopped', async () => {
      const user = await registerUser(server);
      ai.setFailure({ status: 500 });
      const failed = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('boom'),
      });
      expect(failed.status).toBe(502);
      expect(failed.headers.get('content-type')).toMatch(/json/);
      // The user reads that the answer failed; what the server did is for the operator's log.
      expect(((await failed.json()) as { error: string }).error).toBe(
        'The assistant could not finish its answer. Please try again.',
      );

      ai.setFailure({ dieAfterPieces: 2 });
      ai.setReply(() => 'one two three four five six');
      const died = await server.request('/api/chat', {
        method: 'POST',
        token: user.token,
        body: form('die'),
        headers: { accept: 'text/event-stream' },
      });
      const { tokens, error, done } = await readChatStream(died);
      expect(tokens.join('')).toBe('one two');
      expect(done).toBeUndefined();
      expect(error?.status).toBe(502);
      expect(error?.error).toBe('The assistant could not finish its answer. Please try again.');
      ai.setFailure({});
      ai.setReply((m) => `You said: ${m.at(-1)!.content}`);

      // The reply that died after its first tokens was sent in part: counted, kept as stopped.
      const usage = await server.request('/api/chat/usage', { token: user.token });
      expect(await usage.json()).toEqual({ current: 1, max: 5 });
      const history = await server.request('/api/chat/history', { token: user.token });
      const messages = ((await history.json()) as { messages: Record<string, unknown>[] }).messages;
      expect(messages.map((m) => [m.role, m.text, m.stopped])).toEqual([
        ['user', 'die', undefined],
        ['assistant', 'one two', true],
      ]);
    });
  },
);
