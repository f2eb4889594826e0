import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import type { Storage } from '../../storage/storage';
import { makeDocx, makeZipBomb } from './reader/test-fixtures';
import { getFileText, type FilesDeps } from './files.service';
import { PENDING_PREFIX } from './files.repo';
import { sweepOrphans } from './files.sweep';
import { registerWithId, upload, uploadOk } from './test-helpers';

const MB = 1024 * 1024;
const TOO_LARGE = 'The file is too large. Please upload a smaller file.';
/** A body that passes the pdf magic-byte check, padded to `size` bytes. */
const pdfLike = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size - 9, 0x20)]);

describe.each(testDialects())('file limits and refusals (%s)', (dialect) => {
  let server: TestServer;
  let deps: FilesDeps;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    deps = { db: server.app.db, dialect: server.app.dialect, storage: server.app.storage };
  });
  afterAll(() => server.close());

  const freshUser = () => registerWithId(server);
  /** A file row of `size` bytes (its object holds one byte): the quota counts the row's size. */
  async function fillQuota(userId: number, size: number) {
    await server.app.db
      .insertInto('files')
      .values({
        user_id: userId,
        file_name: 'filler.pdf',
        type: 'pdf',
        size,
        storage_key: `users/${userId}/filler`,
        created_at: new Date(0).toISOString(),
      })
      .execute();
    await server.app.storage.put(`users/${userId}/filler`, Readable.from([Buffer.from('x')]));
  }
  /** Rows (pending ones included) and stored objects of a user: a refusal must leave neither. */
  async function leftovers(userId: number) {
    const rows = await server.app.db
      .selectFrom('files')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    const objects: string[] = [];
    for await (const k of server.app.storage.list(`users/${userId}/`)) objects.push(k);
    return { rows: rows.length, objects: objects.length };
  }

  it('refuses other extensions and content that does not match its extension (415)', async () => {
    const u = await freshUser();
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), Buffer.alloc(2000)]);
    const plainZip = await new JSZip()
      .file('hello.txt', 'hi')
      .generateAsync({ type: 'nodebuffer' });
    const docx = await makeDocx(['x']);
    for (const [name, bytes] of [
      ['virus.exe', exe],
      ['image.png', Buffer.from('png')],
      ['noextension', Buffer.from('x')],
      ['virus.pdf', exe],
      ['virus.txt', exe],
      ['virus.csv', exe],
      ['archive.docx', plainZip],
      ['archive.xlsx', plainZip],
      ['word.pptx', docx],
      ['word.xlsx', docx],
      ['fake.docx', Buffer.from('PK\x03\x04 not really a zip')],
    ] as const) {
      const res = await upload(server, u.token, name, bytes);
      expect(res.status, name).toBe(415);
      expect(await res.json()).toEqual({ error: 'Unsupported file type' });
    }
    expect(await leftovers(u.id)).toEqual({ rows: 0, objects: 0 });
  });

  it('cuts uploads at the per-type limit with 413 and keeps nothing', async () => {
    const u = await freshUser();
    for (const [name, bytes] of [
      ['big.txt', Buffer.alloc(2 * MB + 1, 0x61)],
      ['big.csv', Buffer.alloc(5 * MB + 1, 0x61)],
      ['big.pdf', pdfLike(10 * MB + 1)],
      ['huge.pdf', pdfLike(12 * MB)],
    ] as const) {
      const res = await upload(server, u.token, name, bytes);
      expect(res.status, name).toBe(413);
      const limit = name.endsWith('.txt')
        ? 'Text files can be at most 2 MB.'
        : name.endsWith('.csv')
          ? 'CSV files can be at most 5 MB.'
          : 'PDF files can be at most 10 MB.';
      expect(await res.json()).toEqual({ error: `${TOO_LARGE} ${limit}` });
    }
    expect(await leftovers(u.id)).toEqual({ rows: 0, objects: 0 });
    // exactly at the limit is fine
    expect((await uploadOk(server, u.token, 'max.txt', Buffer.alloc(2 * MB, 0x61))).size).toBe(
      2 * MB,
    );
  });

  it('refuses an empty file and a request without a file (400)', async () => {
    const u = await freshUser();
    expect((await upload(server, u.token, 'empty.txt', '')).status).toBe(400);
    const form = new FormData();
    form.append('other', 'value');
    const res = await server.request('/api/upload_file', {
      method: 'POST',
      token: u.token,
      body: form,
    });
    expect(res.status).toBe(400);
    const json = await server.request('/api/upload_file', {
      method: 'POST',
      token: u.token,
      json: {},
    });
    expect(json.status).toBe(400);
    expect(await leftovers(u.id)).toEqual({ rows: 0, objects: 0 });
  });

  it('never lets 20 parallel uploads push an account past 100 MB', async () => {
    const u = await freshUser();
    // Pre-fill 85 MB with a row of our own so the race is over the last 15 MB, not 100 MB of I/O.
    await fillQuota(u.id, 85 * MB);
    const size = MB;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => upload(server, u.token, `part-${i}.pdf`, pdfLike(size))),
    );
    const statuses = results.map((r) => r.status);
    const ok = statuses.filter((s) => s === 201).length;
    expect(statuses.every((s) => s === 201 || s === 413)).toBe(true);
    expect(ok).toBeGreaterThanOrEqual(14);
    expect(85 * MB + ok * size).toBeLessThanOrEqual(100 * MB);
    const list = (await (await server.request('/api/my_files', { token: u.token })).json()) as {
      files: unknown[];
      used_bytes: number;
    };
    expect(list.files).toHaveLength(ok + 1);
    expect(list.used_bytes).toBe(85 * MB + ok * size);
    expect(await leftovers(u.id)).toEqual({ rows: ok + 1, objects: ok + 1 });
    // the account is full: a further upload is refused with the quota message
    const more = await upload(server, u.token, 'more.pdf', pdfLike(2 * MB));
    expect(more.status).toBe(413);
    expect(((await more.json()) as { error: string }).error).toMatch(/storage is full/);
  });

  it('cuts an upload at what is left of the quota, learnt while its bytes already flow', async () => {
    const u = await freshUser();
    await fillQuota(u.id, 99 * MB);
    const over = await upload(server, u.token, 'two.pdf', pdfLike(2 * MB));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: string }).error).toMatch(/storage is full/);
    expect(await leftovers(u.id)).toEqual({ rows: 1, objects: 1 });
    // what does fit is stored
    await uploadOk(server, u.token, 'half.pdf', pdfLike(MB / 2));
    expect(await leftovers(u.id)).toEqual({ rows: 2, objects: 2 });
  });

  it('gives clean errors for a zip bomb and a corrupt pdf', async () => {
    const u = await freshUser();
    const bomb = await uploadOk(server, u.token, 'bomb.docx', makeZipBomb(160 * MB, { lie: true }));
    const res = await server.request(`/api/preview_file/${bomb.id}`, { token: u.token });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /^could not read this file: .*zip bomb/,
    );

    const pdf = await uploadOk(server, u.token, 'broken.pdf', '%PDF-1.7\nthis is not a pdf at all');
    await expect(getFileText(deps, u.id, pdf.id)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^could not read this file: /),
    });
    // the server is still fine afterwards
    expect((await server.request('/api/my_files', { token: u.token })).status).toBe(200);
  });

  it('sweeps orphan objects and rows without objects at start-up', async () => {
    const u = await freshUser();
    const kept = await uploadOk(server, u.token, 'kept.txt', 'kept');
    const lost = await uploadOk(server, u.token, 'lost.txt', 'lost');
    const lostRow = await server.app.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', lost.id)
      .executeTakeFirstOrThrow();
    await server.app.storage.delete(lostRow.storage_key);
    await server.app.storage.put(`users/${u.id}/orphan`, Readable.from([Buffer.from('orphan')]));

    const swept = await sweepOrphans(deps);
    expect(swept).toMatchObject({ rowsRemoved: 1, objectsRemoved: 1 });
    const list = (await (await server.request('/api/my_files', { token: u.token })).json()) as {
      files: { id: number }[];
    };
    expect(list.files.map((f) => f.id)).toEqual([kept.id]);
    expect(await leftovers(u.id)).toEqual({ rows: 1, objects: 1 });
  });

  it('drops at start-up the reservation of an upload killed before it was recorded', async () => {
    const u = await freshUser();
    const key = `users/${u.id}/cut-short`;
    await server.app.db
      .insertInto('files')
      .values({
        user_id: u.id,
        file_name: `${PENDING_PREFIX}${key}`,
        type: 'txt',
        size: 1000,
        storage_key: key,
        created_at: new Date().toISOString(),
      })
      .execute();
    await server.app.storage.put(key, Readable.from([Buffer.from('stored, never recorded')]));
    // A store shared by several app servers keeps a young one: it may be another server's upload.
    const local = server.app.storage;
    const shared: Storage = {
      shared: true,
      put: (k, body) => local.put(k, body),
      get: (k) => local.get(k),
      delete: (k) => local.delete(k),
      deletePrefix: (p) => local.deletePrefix(p),
      check: (signal) => local.check(signal),
      list: (p) => local.list(p),
    };
    await sweepOrphans({ ...deps, storage: shared });
    expect(await leftovers(u.id)).toEqual({ rows: 1, objects: 1 });
    // The local disk is this server's alone: nothing can be running at start-up.
    await sweepOrphans(deps);
    expect(await leftovers(u.id)).toEqual({ rows: 0, objects: 0 });
  });
});
