import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import { registerUser, startTestServer, type TestServer } from '../../../../test/test-app';
import { uploadOk } from '../../files/testing';
import { untilIndexed } from '../knowledge/test-helpers';
import { postForm, sentTexts } from '../test-helpers';
import { fuseRankings } from './rank-fusion';

/**
 * Hybrid retrieval over HTTP with a local server speaking the OpenAI Embeddings protocol: its
 * vectors know that an automobile is a car and crimson a colour, which BM25 cannot.
 */
const CONCEPTS = [/\b(car|automobile)s?\b/i, /\b(colou?r|crimson)\b/i, /\b(rain|wind|tide)\b/i];
const embed = (text: string) => CONCEPTS.map((c) => (c.test(text) ? 1 : 0) + 0.01);

const filler = Array.from(
  { length: 40 },
  (_, i) => `Log ${i + 1}: rain in the morning, wind from the west, the tide was low at noon.`,
);
const text = [
  ...filler.slice(0, 20),
  'The car park by the harbour opened in spring.',
  ...filler.slice(20),
  'The automobile left the factory in crimson.',
].join('\n\n');
const question = 'What colour was the car?';

describe('reciprocal rank fusion', () => {
  it('ranks first what both rankings put high, and keeps what only one found', () => {
    const fused = fuseRankings(
      [
        [3, 1, 2],
        [1, 4],
      ],
      10,
    ).map((r) => r.index);
    expect(fused[0]).toBe(1);
    expect(fused).toEqual(expect.arrayContaining([2, 3, 4]));
  });
});

describe.each([
  ['BM25 alone', false],
  ['BM25 and vectors', true],
])('asking about a file: %s', (_name, hybrid) => {
  let model: OpenAITestServer;
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    model = await startOpenAITestServer({ embed, reply: () => 'It was crimson.' });
    server = await startTestServer({
      env: {
        AI_BASE_URL: model.url,
        ...(hybrid ? { AI_EMBEDDINGS_MODEL: 'test-embed' } : {}),
        ASK_MAX_PASSAGE_TOKENS: '200',
      },
    });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  const passageBatches = () =>
    model.embeddingRequests.filter((r) => Array.isArray(r.input) && r.input.length > 1).length;

  it(`${hybrid ? 'finds' : 'misses'} the passage that says it in other words; a stored file's vectors come from the index`, async () => {
    const file = await uploadOk(server, token, 'log.txt', text);
    await untilIndexed(server, token);
    if (hybrid) {
      server.app.knowledgeVectors!.poke();
      await server.app.knowledgeVectors!.settled();
    }
    const ask = async (q: string) => {
      model.requests.length = 0;
      const res = await postForm(server, '/api/askQuestions', token, {
        fields: { file_id: String(file.id), text: q },
      });
      expect(res.status).toBe(200);
      return sentTexts(model.requests)[0]!;
    };
    const prompt = await ask(question);
    expect(prompt).toContain('The car park');
    if (hybrid) expect(prompt).toContain('crimson');
    else expect(prompt).not.toContain('crimson');

    // The indexer's one batch, before any question.
    expect(passageBatches()).toBe(hybrid ? 1 : 0);
    if (!hybrid) return expect(model.embeddingRequests).toEqual([]);
    expect(model.embeddingRequests.every((r) => r.model === 'test-embed')).toBe(true);
    expect(model.embeddingRequests.at(-1)!.input).toEqual([question]);
    await ask('Which automobile was crimson?');
    expect(passageBatches()).toBe(1);
    expect(model.embeddingRequests.at(-1)!.input).toEqual(['Which automobile was crimson?']);
  });

  it(`${hybrid ? 'finds' : 'misses'} it in a file sent with the question; its vectors are kept for the next one`, async () => {
    model.embeddingRequests.length = 0;
    const ask = async (q: string) => {
      model.requests.length = 0;
      const res = await postForm(server, '/api/askQuestions', token, {
        file: { name: 'sent.txt', bytes: text },
        fields: { text: q },
      });
      expect(res.status).toBe(200);
      return sentTexts(model.requests)[0]!;
    };
    const prompt = await ask(question);
    if (hybrid) expect(prompt).toContain('crimson');
    else expect(prompt).not.toContain('crimson');
    expect(passageBatches()).toBe(hybrid ? 1 : 0);
    // The same text again: its index, vectors and all, was kept by its content.
    await ask('Which automobile was crimson?');
    expect(passageBatches()).toBe(hybrid ? 1 : 0);
  });
});
