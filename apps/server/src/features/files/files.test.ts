import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { encodeLegacy, makeDocx, makePdf, makePptx, makeXlsx } from './reader/test-fixtures';
import { filesRepo } from './files.repo';
import { getFileText, type FilesDeps } from './files.service';
import { upload, uploadOk } from './test-helpers';

describe.each(testDialects())('personal files over HTTP (%s)', (dialect) => {
  let server: TestServer;
  let token: string;
  let userId: number;
  let deps: FilesDeps;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    token = (await registerUser(server)).token;
    const me = server.app.accessTokens.verify(token);
    userId = me!.userId;
    deps = { db: server.app.db, dialect: server.app.dialect, storage: server.app.storage };
  });
  afterAll(() => server.close());

  const cases = [
    {
      name: 'Quarterly report.pdf',
      make: () => makePdf(['Revenue grew strongly', 'Second page text']),
      preview: (r: Response) => expect(r.headers.get('content-type')).toBe('application/pdf'),
      expected: 'Revenue grew strongly',
    },
    {
      name: 'notes.docx',
      make: () => makeDocx(['Meeting notes', 'Action items follow']),
      preview: async (r: Response) =>
        expect(await r.json()).toMatchObject({
          kind: 'text',
          type: 'docx',
          text: 'Meeting notes\n\nAction items follow',
        }),
      expected: 'Action items follow',
    },
    {
      name: 'budget.XLSX',
      make: () =>
        makeXlsx({
          Budget: [
            ['item', 'cost'],
            ['coffee', 12],
          ],
          Notes: [['ok']],
        }),
      preview: async (r: Response) =>
        expect(await r.json()).toMatchObject({
          kind: 'table',
          type: 'xlsx',
          sheets: [
            {
              name: 'Budget',
              rows: [
                ['item', 'cost'],
                ['coffee', '12'],
              ],
            },
            { name: 'Notes', rows: [['ok']] },
          ],
        }),
      expected: 'coffee\t12',
    },
    {
      name: 'deck.pptx',
      make: () => makePptx([['Welcome slide'], ['Roadmap', 'Q3 launch']]),
      preview: async (r: Response) =>
        expect(await r.json()).toMatchObject({
          kind: 'slides',
          slides: [
            { label: 'Slide 1', text: 'Welcome slide' },
            { label: 'Slide 2', text: 'Roadmap\nQ3 launch' },
          ],
        }),
      expected: 'Q3 launch',
    },
    {
      name: 'people.csv',
      make: async () => Buffer.from('name,city\nAda,"London, UK"\n'),
      preview: async (r: Response) =>
        expect(await r.json()).toMatchObject({
          kind: 'table',
          type: 'csv',
          sheets: [
            {
              rows: [
                ['name', 'city'],
                ['Ada', 'London, UK'],
              ],
            },
          ],
        }),
      expected: 'London, UK',
    },
    {
      name: 'café.txt',
      make: async () => Buffer.from('Grüße aus Köln ✓\n'),
      preview: async (r: Response) =>
        expect(await r.json()).toMatchObject({ kind: 'text', type: 'txt' }),
      expected: 'Grüße aus Köln ✓',
    },
  ];

  it.each(cases)(
    '$name uploads, lists, previews, downloads byte-identical and extracts',
    async (c) => {
      const bytes = await c.make();
      const res = await upload(server, token, c.name, bytes);
      expect(res.status).toBe(201);
      const body = (await res.json()) as {
        message: string;
        file: { id: number; file_name: string; size: number };
      };
      expect(body.message).toBe('File uploaded successfully!');
      expect(body.file).toMatchObject({
        file_name: c.name.replace('XLSX', 'xlsx'),
        size: bytes.length,
      });
      const id = body.file.id;

      const list = (await (await server.request('/api/my_files', { token })).json()) as {
        files: { id: number }[];
        used_bytes: number;
        quota_bytes: number;
      };
      expect(list.files[0]?.id).toBe(id); // newest first
      expect(list.quota_bytes).toBe(100 * 1024 * 1024);

      const preview = await server.request(`/api/preview_file/${id}`, { token });
      expect(preview.status).toBe(200);
      await c.preview(preview);

      const dl = await server.request(`/api/download_file/${id}`, { token });
      expect(dl.status).toBe(200);
      expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
      const cd = dl.headers.get('content-disposition')!;
      expect(cd).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
      expect(decodeURIComponent(cd.split("UTF-8''")[1]!)).toBe(body.file.file_name);

      const text = await getFileText(deps, userId, id);
      expect(text.text).toContain(c.expected);
      // Cached once answered (the text is answered first), then served from the cache table.
      const cached = () =>
        server.app.db
          .selectFrom('file_text_cache')
          .select('file_id')
          .where('file_id', '=', id)
          .execute();
      await expect.poll(cached).toHaveLength(1);
      expect(await getFileText(deps, userId, id)).toEqual(text);
    },
  );

  it('previews a cp866 text as written, even over text an older reader cached', async () => {
    const text = 'Отчёт за квартал: выручка выросла';
    const res = await upload(server, token, 'отчёт.txt', encodeLegacy(text, 'ibm866'));
    const { id } = ((await res.json()) as { file: { id: number } }).file;
    // What the reader before READER_VERSION cached: cp866 decoded as windows-1252.
    const garbled = { text: '\u008e\u0092\u0087\u00a5\u00e2', units: [], truncated: false };
    await filesRepo.putCachedText(server.app.db, server.app.dialect, id, JSON.stringify(garbled));
    const preview = await server.request(`/api/preview_file/${id}`, { token });
    expect(await preview.json()).toMatchObject({ kind: 'text', type: 'txt', text });
    expect((await getFileText(deps, userId, id)).text).toBe(text);
  });

  it('suffixes names already in the folder', async () => {
    const names = [];
    for (let i = 0; i < 3; i++)
      names.push((await uploadOk(server, token, 'dir/report.txt', 'x')).file_name);
    expect(names).toEqual(['report.txt', 'report (1).txt', 'report (2).txt']);
  });

  it('renames keeping the extension, and refuses bad names', async () => {
    const a = await uploadOk(server, token, 'a.txt', 'a');
    await uploadOk(server, token, 'taken.txt', 'b');
    const rename = (new_name: unknown, id = a.id) =>
      server.request(`/api/rename_file/${id}`, { method: 'PATCH', token, json: { new_name } });

    const ok = await rename('Résumé final');
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { file: { file_name: string } }).file.file_name).toBe(
      'Résumé final.txt',
    );
    expect((await (await rename('again.txt')).json()) as object).toMatchObject({
      file: { file_name: 'again.txt' },
    });

    for (const bad of [
      '',
      '   ',
      'x'.repeat(201),
      'x'.repeat(197),
      'a/b',
      'a\\b',
      'bad\u0007name',
      '..',
      42,
    ]) {
      const res = await rename(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await rename('taken')).status).toBe(409);
    expect((await rename('x', 999999)).status).toBe(404);
  });

  it('answers 404 for another user’s file exactly like a missing one', async () => {
    const mine = await uploadOk(server, token, 'secret.txt', 'secret');
    const other = (await registerUser(server)).token;
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/preview_file/'],
      ['GET', '/api/download_file/'],
      ['PATCH', '/api/rename_file/', { new_name: 'stolen' }],
      ['DELETE', '/api/delete_file/'],
    ];
    for (const [method, path, json] of calls) {
      const theirs = await server.request(path + mine.id, { method, token: other, json });
      const missing = await server.request(`${path}987654`, { method, token: other, json });
      expect(theirs.status).toBe(404);
      expect(await theirs.text()).toBe(await missing.text());
    }
    await expect(getFileText(deps, userId + 1000, mine.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    const list = (await (await server.request('/api/my_files', { token: other })).json()) as {
      files: unknown[];
    };
    expect(list.files).toEqual([]);
    expect((await server.request(`/api/download_file/${mine.id}`, { token })).status).toBe(200);
  });

  it('needs a token on every route', async () => {
    for (const [method, path] of [
      ['POST', '/api/upload_file'],
      ['GET', '/api/my_files'],
      ['GET', '/api/preview_file/1'],
      ['GET', '/api/download_file/1'],
      ['PATCH', '/api/rename_file/1'],
      ['DELETE', '/api/delete_file/1'],
      ['DELETE', '/api/delete_all_files'],
    ] as const) {
      expect((await server.request(path, { method })).status, path).toBe(401);
    }
  });

  it('deletes one file, then all, with their stored objects', async () => {
    const u = await registerUser(server);
    const a = await uploadOk(server, u.token, 'one.txt', '1');
    await uploadOk(server, u.token, 'two.txt', '2');
    await uploadOk(server, u.token, 'three.txt', '3');
    const del = await server.request(`/api/delete_file/${a.id}`, {
      method: 'DELETE',
      token: u.token,
    });
    expect(await del.json()).toMatchObject({ deleted: 1 });
    expect((await server.request(`/api/download_file/${a.id}`, { token: u.token })).status).toBe(
      404,
    );
    const all = await server.request('/api/delete_all_files', { method: 'DELETE', token: u.token });
    expect(await all.json()).toMatchObject({ deleted: 2 });
    const list = (await (await server.request('/api/my_files', { token: u.token })).json()) as {
      used_bytes: number;
    };
    expect(list).toMatchObject({ files: [], used_bytes: 0 });
    const me = server.app.accessTokens.verify(u.token)!.userId;
    const left: string[] = [];
    for await (const k of server.app.storage.list(`users/${me}/`)) left.push(k);
    expect(left).toEqual([]);
  });
});
