import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askQuestionsResponseSchema } from '@inkwell/contract';
import { multipart, openEventStream } from '../../../test/event-stream-client';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-app';

/**
 * A question about a file streams its answer (issue 39): with `Accept: text/event-stream`, the
 * answer so far comes as `partial` events while the model writes, then the whole as `done`.
 */
const PIECES = ['The keeper', ' is named', ' Ada', ' [Paragraph 1].'];

describe('askQuestions streams its answer', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    // Pauses between pieces longer than the server's least gap between partials: each piece
    // makes one.
    model = await startOpenAITestServer({ reply: () => PIECES, pieceDelayMs: 300 });
    server = await startTestServer({ env: { AI_BASE_URL: model.url } });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  it('sends the answer so far, growing, before the whole answer', async () => {
    const stream = await openEventStream(server.url, {
      path: '/api/askQuestions',
      token,
      body: await multipart(
        { text: 'Who keeps the light?' },
        { name: 'keeper.txt', bytes: Buffer.from('The keeper of the light is Ada.\n') },
      ),
    });
    expect(stream.status).toBe(200);
    const done = await stream.waitFor((e) => e.event === 'done' || e.event === 'error');
    expect(done.event).toBe('done');
    const answer = askQuestionsResponseSchema.parse(done.data).response;
    expect(answer).toBe(PIECES.join(''));
    const partials = stream.events
      .filter((e) => e.event === 'partial')
      .map((e) => askQuestionsResponseSchema.parse(e.data).response);
    expect(partials.length).toBeGreaterThanOrEqual(PIECES.length - 1);
    expect(partials[0]).toBe(PIECES[0]);
    partials.forEach((text, i) => {
      expect(answer.startsWith(text), text).toBe(true);
      if (i > 0) expect(text.length).toBeGreaterThan(partials[i - 1]!.length);
    });
    // Every partial came before the whole answer.
    expect(stream.events.findIndex((e) => e.event === 'done')).toBeGreaterThan(
      stream.events.findLastIndex((e) => e.event === 'partial'),
    );
  });
});
