import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { hookDiskWrites, type DiskFull } from '../../../test/disk-full';
import { startOpenAITestServer, type OpenAITestServer } from '../../../test/openai-test-server';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { filesRepo } from './files.repo';
import { accountFilesState, registerWithId, upload, uploadOk } from './test-helpers';

/**
 * A full disk under the local storage (issue 36): the storage's writes fail with ENOSPC (injected
 * beneath it, at the file handle), after part of a file reached the disk. The upload answers 507
 * with the product's message, leaves no partial file, no file row and the quota as it was; a
 * document action with an upload fails the same way and queues nothing; the server goes on
 * serving, and uploads work again once there is room.
 */
const CSV = Buffer.from(
  Array.from({ length: 60_000 }, (_, i) => `${i},gull,harbour,${i % 97}`).join('\n'),
);

/** Every file under `dir`, relative, recursively. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));

describe('uploads on a full disk', () => {
  let model: OpenAITestServer;
  let server: TestServer;
  let disk: DiskFull;
  let user: { token: string; id: number };
  let keepId: number;

  beforeAll(async () => {
    model = await startOpenAITestServer({ reply: () => 'A summary.' });
    server = await startTestServer({ env: { AI_BASE_URL: model.url, AI_MODEL: 'test-model' } });
    user = await registerWithId(server);
    keepId = (await uploadOk(server, user.token, 'keep.txt', 'keep me')).id;
    disk = await hookDiskWrites();
  });
  afterAll(async () => {
    disk?.restore();
    await server?.close();
    await model?.close();
  });

  const state = async () => {
    const jobs = await server.app.db
      .selectFrom('jobs')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    return {
      ...(await accountFilesState(server, user)),
      jobs: jobs.length,
      stored: filesUnder(path.join(server.dataDir, 'files')),
    };
  };

  it('answers 507, leaves nothing half-written, keeps serving, and works again with room', async () => {
    const before = await state();
    expect(before.stored).toHaveLength(1);

    // Half a megabyte of room: the upload's first bytes reach the disk, then ENOSPC.
    disk.fill(512 * 1024);
    const res = await upload(server, user.token, 'big.csv', CSV);
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: ERROR_MESSAGES.storageFull });
    expect(disk.writtenWhileFull).toBe(512 * 1024); // a partial file was there
    expect(await state()).toEqual(before); // and is gone, with its row and its quota

    // No room at all: a document action with an upload fails alike and queues nothing.
    disk.fill(0);
    const form = new FormData();
    form.append('file', new Blob([CSV]), 'doc.csv');
    const action = await server.request('/api/summarize', {
      method: 'POST',
      token: user.token,
      body: form,
    });
    expect(action.status).toBe(507);
    expect(await action.json()).toEqual({ error: ERROR_MESSAGES.storageFull });
    expect(await upload(server, user.token, 'small.txt', 'tiny')).toHaveProperty('status', 507);
    expect(disk.refused).toBeGreaterThanOrEqual(2);
    expect(await state()).toEqual(before);

    // Still serving while the disk is full: reads, lists, health.
    expect((await server.request('/api/health')).status).toBe(200);
    const kept = await server.request(`/api/download_file/${keepId}`, { token: user.token });
    expect(await kept.text()).toBe('keep me');

    // Room again: the same upload goes through, whole.
    disk.free();
    const again = await uploadOk(server, user.token, 'big.csv', CSV);
    const back = await server.request(`/api/download_file/${again.id}`, { token: user.token });
    expect(Buffer.from(await back.arrayBuffer()).equals(CSV)).toBe(true);
    const after = await state();
    expect(after.names).toEqual([...before.names, 'big.csv'].sort());
    expect(after.used).toBe(before.used + CSV.length);
  });

  it('gives the reservation back once there is room, when the database had none for that either', async () => {
    const before = await state();
    const sqliteFull = () =>
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const drop = vi
      .spyOn(filesRepo, 'deleteRowOf')
      .mockRejectedValueOnce(sqliteFull())
      .mockRejectedValueOnce(sqliteFull());
    try {
      disk.fill(0);
      expect((await upload(server, user.token, 'late.csv', CSV)).status).toBe(507);
      disk.free();
      expect((await state()).rows).toHaveLength(before.rows.length + 1); // still reserved
      await vi.waitFor(async () => expect(await state()).toEqual(before), { timeout: 20_000 });
      expect(drop).toHaveBeenCalledTimes(3);
    } finally {
      drop.mockRestore();
      disk.free();
    }
  });
});
