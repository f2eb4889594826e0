import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AskFilesResponse, JobList } from '@inkwell/contract';
import { multipart, openEventStream } from '../../../../test/event-stream-client';
import { startOpenAITestServer, type OpenAITestServer } from '../../../../test/openai-test-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../../test/test-app';
import { sentTexts } from '../test-helpers';
import { registerWithId, uploadOk } from '../../files/testing';
import { askFiles, myFiles, untilIndexed } from './test-helpers';
import { INDEX_VERSION } from './terms';

/**
 * Questions across files over real HTTP, against the OpenAI-compatible stand-in: the index is
 * built on upload, scoped to the account, kept in step with rename and delete, and the answer
 * names its sources with their place in the file's text.
 */
const MINUTES = `Minutes of March. The committee approved the new bicycle shelter.
The zanzibarite roof will be green and cost four thousand euros.

Other business: the picnic moves to June.`;
const PRICES = `Price sheet. Apples cost two euros a kilo. Pears cost three euros a kilo.

Plums cost five euros a kilo, and cherries cost nine.`;
const SECRET = 'The zanzibarite vault code of the other account is 7741.';

describe.each(testDialects())('ask across files (%s)', (dialect) => {
  let model: OpenAITestServer;
  let server: TestServer;

  beforeAll(async () => {
    model = await startOpenAITestServer();
    server = await startTestServer({ dialect, env: { AI_BASE_URL: model.url } });
  });
  afterAll(async () => {
    await server?.close();
    await model?.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    model.setReply(() => 'The roof will be green [1].');
    model.setFailure({});
  });

  it("answers from the right file, never another account's, with the place of each source", async () => {
    const a = await registerWithId(server);
    const b = await registerWithId(server);
    const minutes = await uploadOk(server, a.token, 'minutes.txt', MINUTES);
    await uploadOk(server, a.token, 'prices.txt', PRICES);
    const secret = await uploadOk(server, b.token, 'vault.txt', SECRET);
    const files = await untilIndexed(server, a.token);
    expect(files.map((f) => f.search)).toEqual(['searchable', 'searchable']);
    await untilIndexed(server, b.token);

    const { status, body } = await askFiles(server, a.token, {
      text: 'What colour will the zanzibarite roof be?',
    });
    expect(status).toBe(200);
    expect(body.response).toBe('The roof will be green [1].');
    expect(body.sources[0]).toMatchObject({ file_id: minutes.id, file_name: 'minutes.txt' });
    expect(body.sources.map((s) => s.file_id)).not.toContain(secret.id);
    const sent = sentTexts(model.requests).join('\n');
    expect(sent).toContain('zanzibarite roof will be green');
    expect(sent).not.toContain('vault code');
    // The offsets point into the text the preview shows.
    const preview = await server.request(`/api/preview_file/${minutes.id}?format=text`, {
      token: a.token,
    });
    const { text } = (await preview.json()) as { text: string };
    const first = body.sources[0]!;
    expect(text.slice(first.start, first.end)).toContain('zanzibarite roof will be green');
    expect(first.where).toMatch(/^paragraph \d+$/);
    expect(first.excerpt).toContain('zanzibarite roof');

    // B's own question finds B's file, not A's.
    const other = await askFiles(server, b.token, { text: 'What is the zanzibarite code?' });
    expect(other.status).toBe(200);
    expect(other.body.sources.map((s) => s.file_id)).toEqual([secret.id]);
  });

  it('finds a passage deep in a long file, and its place in the text', async () => {
    const a = await registerWithId(server);
    const paragraphs = Array.from(
      { length: 60 },
      (_, i) => `Chapter ${i} tells of harbour number ${i} and its ${i * 7} wooden boats.`,
    );
    paragraphs[47] = 'The lighthouse keeper Quintavius painted every lamp cobalt blue in winter.';
    const book = await uploadOk(server, a.token, 'book.txt', paragraphs.join('\n\n'));
    await untilIndexed(server, a.token);
    model.setReply(() => 'Cobalt blue [1].');
    const r = await askFiles(server, a.token, {
      text: 'Which colour did Quintavius paint the lamps?',
    });
    expect(r.status).toBe(200);
    const first = r.body.sources[0]!;
    expect(first).toMatchObject({ file_id: book.id, where: 'paragraph 48' });
    expect(first.excerpt).toContain('Quintavius painted every lamp cobalt blue');
    const preview = await server.request(`/api/preview_file/${book.id}?format=text`, {
      token: a.token,
    });
    const { text } = (await preview.json()) as { text: string };
    expect(text.slice(first.start, first.end)).toBe(paragraphs[47]);

    // The single-file ask answers from the same stored index: with the file's text and bytes
    // gone from the cache and the store, it still finds the passage (nothing is read again).
    const row = await server.app.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', book.id)
      .executeTakeFirstOrThrow();
    await server.app.db.deleteFrom('file_text_cache').where('file_id', '=', book.id).execute();
    await server.app.storage.delete(row.storage_key);
    model.requests.length = 0;
    const single = await server.request('/api/askQuestions', {
      method: 'POST',
      token: a.token,
      json: { file_id: book.id, text: 'Which colour did Quintavius paint the lamps?' },
    });
    expect(single.status).toBe(200);
    const sent = sentTexts(model.requests).join('\n');
    expect(sent).toContain('[Paragraph 48]\nThe lighthouse keeper Quintavius');
  });

  it('follows a rename at once and never uses a deleted file again', async () => {
    const a = await registerWithId(server);
    const minutes = await uploadOk(server, a.token, 'minutes.txt', MINUTES);
    const prices = await uploadOk(server, a.token, 'prices.txt', PRICES);
    await untilIndexed(server, a.token);
    const renamed = await server.request(`/api/rename_file/${minutes.id}`, {
      method: 'PATCH',
      token: a.token,
      json: { new_name: 'march' },
    });
    expect(renamed.status).toBe(200);
    let r = await askFiles(server, a.token, { text: 'zanzibarite roof colour?' });
    expect(r.body.sources[0]).toMatchObject({ file_id: minutes.id, file_name: 'march.txt' });

    await server.request(`/api/delete_file/${minutes.id}`, { method: 'DELETE', token: a.token });
    model.requests.length = 0;
    r = await askFiles(server, a.token, { text: 'zanzibarite roof colour?' });
    expect(r.status).toBe(200);
    expect(r.body.sources.every((s) => s.file_id === prices.id)).toBe(true);
    expect(sentTexts(model.requests).join('\n')).not.toContain('roof will be green');

    await server.request('/api/delete_all_files', { method: 'DELETE', token: a.token });
    r = await askFiles(server, a.token, { text: 'zanzibarite roof colour?' });
    expect(r.status).toBe(409);
    const left = await server.app.db
      .selectFrom('search_passages')
      .select('file_id')
      .where('user_id', '=', a.id)
      .execute();
    expect(left).toEqual([]);
    if (dialect === 'sqlite') {
      // Its FTS5 rows went with them (the trigger of migration 040).
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from search_fts where search_fts match ${`owner : u${a.id}`}`.execute(
        server.app.db,
      );
      expect(rows[0]?.n).toBe(0);
    }
  });

  it("forgets an account's index when the account is deleted", async () => {
    const u = await registerUser(server);
    const id = server.app.accessTokens.verify(u.token)!.userId;
    await uploadOk(server, u.token, 'minutes.txt', MINUTES);
    await untilIndexed(server, u.token);
    const rowsOf = async () => [
      ...(await server.app.db
        .selectFrom('search_passages')
        .select('file_id')
        .where('user_id', '=', id)
        .execute()),
      ...(await server.app.db
        .selectFrom('search_files')
        .select('file_id')
        .where('user_id', '=', id)
        .execute()),
    ];
    expect((await rowsOf()).length).toBeGreaterThan(1);
    const res = await server.request('/api/delete_account', {
      method: 'DELETE',
      token: u.token,
      json: { current_password: u.password },
    });
    expect(res.status).toBe(200);
    expect(await rowsOf()).toEqual([]);
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from search_fts where search_fts match ${`owner : u${id}`}`.execute(
        server.app.db,
      );
      expect(rows[0]?.n).toBe(0);
    }
  });

  it('indexes again a file indexed by an older version, and matches Turkish by word stems', async () => {
    const u = await registerWithId(server);
    const file = await uploadOk(
      server,
      u.token,
      'rapor.txt',
      'Belediye meclisi yeni bisiklet parkını onayladı. Çatı yeşil olacak ve dört bin avroya mal olacak.',
    );
    await untilIndexed(server, u.token);
    const version = () =>
      server.app.db
        .selectFrom('search_files')
        .select('reader')
        .where('file_id', '=', file.id)
        .executeTakeFirstOrThrow();
    expect((await version()).reader).toBe(INDEX_VERSION);
    // As an upgrade finds it: indexed by the reader before the terms' revision.
    await server.app.db
      .updateTable('search_files')
      .set({ reader: INDEX_VERSION - 1 })
      .where('file_id', '=', file.id)
      .execute();
    while ((await version()).reader !== INDEX_VERSION) {
      await server.app.knowledge.sweep();
      await new Promise((r) => setTimeout(r, 20));
    }
    // Snowball's Turkish stemmer leaves "belediyesinin" / "belediye" and "onaylanan" /
    // "onayladı" apart; their first five letters match.
    const { status, body } = await askFiles(server, u.token, {
      text: 'Belediyesinin onaylanan kararı?',
    });
    expect(status).toBe(200);
    expect(body.sources.map((s) => s.file_id)).toEqual([file.id]);
  });

  it('asks only the chosen files, and refuses bad input with 4xx', async () => {
    const a = await registerWithId(server);
    const b = await registerWithId(server);
    expect((await askFiles(server, a.token, { text: 'anything?' })).status).toBe(409);
    const minutes = await uploadOk(server, a.token, 'minutes.txt', MINUTES);
    const prices = await uploadOk(server, a.token, 'prices.txt', PRICES);
    const blank = await uploadOk(server, a.token, 'blank.txt', '   \n\n  ');
    const theirs = await uploadOk(server, b.token, 'vault.txt', SECRET);
    const files = await untilIndexed(server, a.token);
    expect(files.find((f) => f.id === blank.id)).toMatchObject({
      search: 'unreadable',
      search_error: expect.stringMatching(/text/) as unknown,
    });

    const only = await askFiles(server, a.token, {
      text: 'zanzibarite roof?',
      file_ids: [prices.id],
    });
    expect(only.status).toBe(200);
    expect(only.body.sources.every((s) => s.file_id === prices.id)).toBe(true);
    expect((await askFiles(server, a.token, { text: 'x', file_ids: [blank.id] })).status).toBe(409);

    const bad = [
      { text: '' },
      { text: 'x'.repeat(1001) },
      { text: 'ok?', file_ids: 'a,b' },
      { text: 'ok?', file_ids: [-1] },
      [1, 2],
    ];
    for (const body of bad) {
      const r = await askFiles(server, a.token, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toEqual(expect.any(String));
    }
    const notMine = await askFiles(server, a.token, { text: 'ok?', file_ids: [theirs.id] });
    expect(notMine.status).toBe(404);
    const anon = await server.request('/api/ask_files', { method: 'POST', json: { text: 'x' } });
    expect(anon.status).toBe(401);

    // A form with `file_ids` as a comma list, as the web app may send it.
    const form = new FormData();
    form.append('text', 'zanzibarite roof?');
    form.append('file_ids', `${minutes.id},${prices.id}`);
    const res = await server.request('/api/ask_files', {
      method: 'POST',
      token: a.token,
      body: form,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as AskFilesResponse).sources[0]?.file_id).toBe(minutes.id);
  });

  it('streams as a job listed in /api/jobs, counts one prompt, and indexes uploads meanwhile', async () => {
    const a = await registerWithId(server);
    await uploadOk(server, a.token, 'minutes.txt', MINUTES);
    await untilIndexed(server, a.token);
    const usage = async () =>
      (
        (await (await server.request('/api/chat/usage', { token: a.token })).json()) as {
          current: number;
        }
      ).current;
    const before = await usage();
    model.setFailure({ delayMs: 300 });
    const stream = await openEventStream(server.url, {
      path: '/api/ask_files',
      token: a.token,
      body: await multipart({ text: 'What colour is the zanzibarite roof?' }),
    });
    expect(stream.status).toBe(200);
    const job = (await stream.waitFor((e) => e.event === 'job')).data as { id: string };
    // A file uploaded while the question runs is indexed and found by the next one.
    const later = await uploadOk(server, a.token, 'prices.txt', PRICES);
    const done = await stream.waitFor((e) => e.event === 'done');
    expect((done.data as AskFilesResponse).sources[0]?.file_name).toBe('minutes.txt');
    await untilIndexed(server, a.token);
    model.setFailure({});
    const next = await askFiles(server, a.token, { text: 'How much do cherries cost?' });
    expect(next.body.sources[0]?.file_id).toBe(later.id);

    const list = (await (await server.request('/api/jobs', { token: a.token })).json()) as JobList;
    expect(list.jobs.find((j) => j.id === job.id)).toMatchObject({
      kind: 'ask_files',
      state: 'done',
      about: { question: 'What colour is the zanzibarite roof?' },
    });
    expect(await usage()).toBe(before + 2);
  });

  it('answers 503 without a model, and counts no prompt', async () => {
    const bare = await startTestServer({ dialect, env: { AI_BASE_URL: undefined } });
    try {
      const a = await registerWithId(bare);
      await uploadOk(bare, a.token, 'minutes.txt', MINUTES);
      await untilIndexed(bare, a.token);
      expect((await myFiles(bare, a.token))[0]?.search).toBe('searchable');
      const r = await askFiles(bare, a.token, { text: 'zanzibarite?' });
      expect(r.status).toBe(503);
      expect(r.body.error).toEqual(expect.any(String));
    } finally {
      await bare.close();
    }
  });
});
