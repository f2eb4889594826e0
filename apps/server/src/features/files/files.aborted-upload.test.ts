import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_QUOTA_BYTES, MB } from '@inkwell/contract';
import { partialFileForm, sendPartialRequest } from '../../../test/partial-request';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import { PENDING_PREFIX } from './files.repo';
import { registerWithId, upload } from './test-helpers';

/**
 * A client that goes away, or goes silent, in the middle of an upload. Its reservation held the
 * account's last megabyte: unless the server lets go of it at once (and of the partial file), the
 * next upload is refused as if the storage were full.
 */
describe.each(testDialects())('an upload cut short (%s)', (dialect) => {
  let server: TestServer;
  let stalling: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    // A stall timeout short enough for a test; the default is minutes.
    stalling = await startTestServer({ dialect, env: { BODY_STALL_TIMEOUT_MS: '1000' } });
  });
  afterAll(async () => {
    await server?.close();
    await stalling?.close();
  });

  /** A user whose files already take all of the quota but its last megabyte. */
  async function nearlyFullUser(on: TestServer) {
    const user = await registerWithId(on);
    await on.app.db
      .insertInto('files')
      .values({
        user_id: user.id,
        file_name: 'filler.pdf',
        type: 'pdf',
        size: ACCOUNT_QUOTA_BYTES - MB,
        storage_key: `users/${user.id}/filler`,
        created_at: new Date(0).toISOString(),
      })
      .execute();
    return user;
  }

  const pendingRows = async (on: TestServer, userId: number) =>
    (
      await on.app.db
        .selectFrom('files')
        .select('id')
        .where('user_id', '=', userId)
        .where('file_name', 'like', `${PENDING_PREFIX}%`)
        .execute()
    ).length;

  /** Partial files the local storage is writing. */
  const tempFiles = (on: TestServer) => {
    const dir = path.join(on.dataDir, 'files', '.tmp');
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };

  /** Starts a 2 MB text upload and sends its first 256 KB, once they are on their way to disk. */
  async function halfAnUpload(on: TestServer, token: string) {
    const form = partialFileForm('notes.txt', Buffer.alloc(256 * 1024, 'a'), 2 * MB);
    const request = await sendPartialRequest({
      url: on.url,
      path: '/api/upload_file',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
      declaredLength: form.declaredLength,
      sent: form.sent,
    });
    return request;
  }

  it('lets go of the reservation and the partial file when the client drops mid-file', async () => {
    const user = await nearlyFullUser(server);
    const request = await halfAnUpload(server, user.token);
    await expect.poll(() => pendingRows(server, user.id)).toBe(1);
    await expect.poll(() => tempFiles(server)).toBeGreaterThan(0);

    request.socket.destroy();

    await expect.poll(() => pendingRows(server, user.id)).toBe(0);
    await expect.poll(() => tempFiles(server)).toBe(0);
    // The megabyte is free again.
    const res = await upload(server, user.token, 'after.txt', 'b'.repeat(512 * 1024));
    expect(res.status).toBe(201);
  });

  it('times out a client that stalls mid-file, and frees what its upload held', async () => {
    const user = await nearlyFullUser(stalling);
    const request = await halfAnUpload(stalling, user.token);
    await expect.poll(() => pendingRows(stalling, user.id)).toBe(1);

    // The client sends nothing more and keeps the connection open: the server closes it.
    await expect.poll(() => request.closed).toBe(true);
    await expect.poll(() => pendingRows(stalling, user.id)).toBe(0);
    await expect.poll(() => tempFiles(stalling)).toBe(0);
    const res = await upload(stalling, user.token, 'after.txt', 'b'.repeat(512 * 1024));
    expect(res.status).toBe(201);
  });
});
