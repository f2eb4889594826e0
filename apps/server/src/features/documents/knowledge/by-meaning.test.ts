import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import { startTestServer, testDialects, type TestServer } from '../../../../test/test-app';
import { registerWithId, uploadOk } from '../../files/testing';
import { sentTexts } from '../test-helpers';
import { knowledgeRepo } from './knowledge.repo';
import { askFiles, untilIndexed } from './test-helpers';

/**
 * Questions across files with an embeddings model (AI_EMBEDDINGS_MODEL), over HTTP against a
 * local server speaking the OpenAI Embeddings protocol: its vectors know that an automobile is a
 * car and crimson a colour, which words alone cannot. The passages' vectors are computed once, at
 * indexing; a question embeds only itself; the vectors are the owner's and go with the file.
 */
const CONCEPTS = [/\b(car|automobile)s?\b/i, /\b(colou?r|crimson)\b/i, /\b(rain|wind|tide)\b/i];
/** While set, the embeddings server answers once it settles (a batch held in flight). */
let held: Promise<void> | undefined;
const embed = async (text: string) => {
  await held;
  return CONCEPTS.map((c) => (c.test(text) ? 1 : 0) + 0.01);
};

const weather = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `Log ${i + 1}: rain in the morning, wind from the west, the tide was low at noon.`,
  ).join('\n\n');
const HARBOUR = `${weather(12)}\n\nThe car park by the harbour opened in spring.\n\n${weather(12)}`;
const FACTORY = `${weather(12)}\n\nThe automobile left the factory in crimson.\n\n${weather(12)}`;
const OTHER = 'The automobile of the other account is crimson; its alarm code is 7741.';
const QUESTION = 'What colour was the car?';

describe.each(testDialects())('ask across files by meaning (%s)', (dialect) => {
  let model: OpenAITestServer;
  let server: TestServer;

  beforeAll(async () => {
    model = await startOpenAITestServer({ embed, reply: () => 'It was crimson [1].' });
    server = await startTestServer({
      dialect,
      env: {
        AI_BASE_URL: model.url,
        AI_EMBEDDINGS_MODEL: 'test-embed',
        ASK_MAX_PASSAGE_TOKENS: '400',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });

  /** Every file indexed and given its vectors. */
  async function untilEmbedded(token: string) {
    await untilIndexed(server, token);
    server.app.knowledgeVectors!.poke();
    await server.app.knowledgeVectors!.settled();
  }

  it('finds the passage that says it in other words, with vectors computed once at indexing', async () => {
    const a = await registerWithId(server);
    const b = await registerWithId(server);
    await uploadOk(server, a.token, 'harbour.txt', HARBOUR);
    const factory = await uploadOk(server, a.token, 'factory.txt', FACTORY);
    await uploadOk(server, b.token, 'other.txt', OTHER);
    await untilEmbedded(a.token);
    await untilEmbedded(b.token);
    // One batch of passages a file, before any question.
    expect(model.embeddingRequests).toHaveLength(3);
    expect(model.embeddingRequests.every((r) => r.model === 'test-embed')).toBe(true);
    // The Admin page counts them.
    const progress = await knowledgeRepo.progress(server.app.db, 'test-embed');
    expect(progress.with_vectors).toBe(progress.searchable);

    model.requests.length = 0;
    model.embeddingRequests.length = 0;
    const { status, body } = await askFiles(server, a.token, { text: QUESTION });
    expect(status).toBe(200);
    const sent = sentTexts(model.requests).join('\n');
    expect(sent).toContain('The automobile left the factory in crimson.');
    expect(body.sources.map((s) => s.file_id)).toContain(factory.id);
    // The other account's passage, nearest of all in meaning, is never compared.
    expect(sent).not.toContain('7741');
    // The question is the only text embedded.
    expect(model.embeddingRequests.map((r) => r.input)).toEqual([[QUESTION]]);

    // A deleted file's vectors go with it; the question no longer reaches its passage.
    await server.request(`/api/delete_file/${factory.id}`, { method: 'DELETE', token: a.token });
    const left = await server.app.db
      .selectFrom('search_vectors')
      .select('ord')
      .where('file_id', '=', factory.id)
      .execute();
    expect(left).toEqual([]);
    model.requests.length = 0;
    expect((await askFiles(server, a.token, { text: QUESTION })).status).toBe(200);
    expect(sentTexts(model.requests).join('\n')).not.toContain('crimson');
  });

  it("stops computing a deleted file's vectors after the batch under way", async () => {
    const a = await registerWithId(server);
    let release = () => {};
    held = new Promise((r) => (release = r));
    model.embeddingRequests.length = 0;
    try {
      // A long logbook: several batches of passages for the embeddings model.
      const log = await uploadOk(server, a.token, 'logbook.txt', weather(4_000));
      await expect.poll(() => model.embeddingRequests.length).toBe(1);
      expect(model.embeddingRequests[0]!.input.length).toBeGreaterThan(1);
      const del = await server.request(`/api/delete_file/${log.id}`, {
        method: 'DELETE',
        token: a.token,
      });
      expect(del.status).toBe(200);
    } finally {
      release();
      held = undefined;
    }
    await server.app.knowledgeVectors!.settled();
    // The batch under way was answered; no other batch of the deleted file was asked for.
    expect(model.embeddingRequests).toHaveLength(1);
  });

  it('answers by words alone while the embeddings model is down, and gives vectors once it is back', async () => {
    const a = await registerWithId(server);
    await uploadOk(server, a.token, 'harbour.txt', HARBOUR);
    model.setEmbeddingsFailure(503);
    try {
      const factory = await uploadOk(server, a.token, 'factory.txt', FACTORY);
      await untilEmbedded(a.token);
      const vectorModel = async () =>
        (
          await server.app.db
            .selectFrom('search_files')
            .select('vector_model')
            .where('file_id', '=', factory.id)
            .executeTakeFirstOrThrow()
        ).vector_model;
      // Searchable by its words, without vectors yet.
      expect(await vectorModel()).toBeNull();
      model.requests.length = 0;
      const down = await askFiles(server, a.token, { text: QUESTION });
      expect(down.status).toBe(200);
      const sent = sentTexts(model.requests).join('\n');
      expect(sent).toContain('The car park by the harbour');
      expect(sent).not.toContain('crimson');

      model.setEmbeddingsFailure(undefined);
      await untilEmbedded(a.token);
      expect(await vectorModel()).toBe('test-embed');
      model.requests.length = 0;
      expect((await askFiles(server, a.token, { text: QUESTION })).status).toBe(200);
      expect(sentTexts(model.requests).join('\n')).toContain('in crimson');
    } finally {
      model.setEmbeddingsFailure(undefined);
    }
  });
});
