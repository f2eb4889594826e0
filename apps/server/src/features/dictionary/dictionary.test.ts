import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DICTIONARY_MAX_WORDS,
  DICTIONARY_WORD_MAX_CHARS,
  dictionaryResponseSchema,
} from '@inkwell/contract';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';

/** The personal dictionary over real HTTP: who may ask, what a word is, one list per user. */
describe.each(testDialects())('personal dictionary (%s)', (dialect) => {
  let server: TestServer;
  let ada: string;
  let bob: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    ada = (await registerUser(server)).token;
    bob = (await registerUser(server)).token;
  });
  afterAll(async () => server?.close());

  const list = async (token: string) =>
    dictionaryResponseSchema.parse(
      await (await server.request('/api/dictionary', { token })).json(),
    ).words;
  const add = (token: string, word: unknown) =>
    server.request('/api/dictionary', { method: 'POST', token, json: { word } });

  it('answers 401 without a token, on every route', async () => {
    expect((await server.request('/api/dictionary')).status).toBe(401);
    expect((await add('', 'Asha')).status).toBe(401);
    const del = await server.request('/api/dictionary/Asha', { method: 'DELETE' });
    expect(del.status).toBe(401);
  });

  it('adds a word once whatever its case, lists it sorted, removes it', async () => {
    expect((await add(ada, 'IHEP')).status).toBe(201);
    expect((await add(ada, '  Asha ')).status).toBe(201);
    const again = await add(ada, 'asha');
    expect(again.status).toBe(200);
    expect(dictionaryResponseSchema.parse(await again.json()).words).toEqual(['Asha', 'IHEP']);
    expect(await list(ada)).toEqual(['Asha', 'IHEP']);
    // Another user's dictionary is their own.
    expect(await list(bob)).toEqual([]);
    const gone = await server.request('/api/dictionary/ihep', { method: 'DELETE', token: ada });
    expect(gone.status).toBe(200);
    expect(dictionaryResponseSchema.parse(await gone.json()).words).toEqual(['Asha']);
    const missing = await server.request('/api/dictionary/IHEP', { method: 'DELETE', token: ada });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'That word is not in your dictionary' });
    // Bob cannot remove Ada's word.
    const other = await server.request('/api/dictionary/Asha', { method: 'DELETE', token: bob });
    expect(other.status).toBe(404);
    expect(await list(ada)).toEqual(['Asha']);
  });

  it('refuses what is not one word, and changes nothing', async () => {
    for (const word of ['', 'two words', 'x'.repeat(DICTIONARY_WORD_MAX_CHARS + 1), '<b>', 42]) {
      const res = await add(bob, word);
      expect(res.status, String(word)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toEqual(expect.any(String));
    }
    expect(await list(bob)).toEqual([]);
  });

  it('holds the cap under a burst: parallel adds at 995 words end at exactly the cap', async () => {
    const carol = await registerUser(server);
    const { id } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', carol.email)
      .executeTakeFirstOrThrow();
    const filled = DICTIONARY_MAX_WORDS - 5;
    await server.app.db
      .insertInto('personal_words')
      .values(
        Array.from({ length: filled }, (_, i) => ({
          user_id: id,
          word_key: `filler${i}`,
          word: `filler${i}`,
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => add(carol.token, `w${i}`)),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 400)).toHaveLength(25);
    const refused = burst.find((r) => r.status === 400)!;
    expect(await refused.json()).toEqual({
      error: `Your dictionary is full (${DICTIONARY_MAX_WORDS} words): remove one first`,
    });
    expect(await list(carol.token)).toHaveLength(DICTIONARY_MAX_WORDS);
    // A word already there is still answered as kept, full or not.
    expect((await add(carol.token, 'FILLER7')).status).toBe(200);
  });
});
