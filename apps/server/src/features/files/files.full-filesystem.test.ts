import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { mountTinyFilesystem, type TinyFilesystem } from '../../../test/tiny-filesystem';
import { registerWithId, upload, uploadOk } from './test-helpers';

/**
 * The same full disk as files.disk-full.test.ts, for real: DATA_DIR (the SQLite database and the
 * stored files) on a 32 MB tmpfs that a filler file fills. Nearly full, an upload fails part-way
 * through its bytes; quite full, even the database has no room. Each answers 507 and leaves no
 * partial file, no row and the quota as it was; the server serves on, and uploads work again
 * once the filler is gone. Skipped, saying why, where a tmpfs cannot be mounted (not root).
 */
const CSV = Buffer.from(
  Array.from({ length: 60_000 }, (_, i) => `${i},gull,harbour,${i % 97}`).join('\n'),
);

describe('uploads on a real full file system', () => {
  // Mounted here, not at collection: a run that filters this test out mounts nothing.
  let tiny: Exclude<TinyFilesystem, { reason: string }> | undefined;
  let skipped: string | undefined;
  let server: TestServer;
  let user: { token: string; id: number };
  let keepId: number;

  beforeAll(async () => {
    const fs = mountTinyFilesystem(32);
    if ('reason' in fs) {
      skipped = fs.reason;
      return;
    }
    tiny = fs;
    server = await startTestServer({ env: { DATA_DIR: tiny.dir } });
    user = await registerWithId(server);
    keepId = (await uploadOk(server, user.token, 'keep.txt', 'keep me')).id;
  });
  afterAll(async () => {
    tiny?.free();
    await server?.close();
    tiny?.unmount();
  });

  const state = async () => {
    const list = await (await server.request('/api/my_files', { token: user.token })).json();
    const rows = await server.app.db
      .selectFrom('files')
      .select(['id', 'size'])
      .where('user_id', '=', user.id)
      .execute();
    const stored = readdirSync(path.join(tiny!.dir, 'files'), {
      recursive: true,
      withFileTypes: true,
    }).filter((e) => e.isFile());
    return { used: list.used_bytes as number, rows, stored: stored.length };
  };

  const expectRefused = async (res: Response) => {
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: ERROR_MESSAGES.storageFull });
  };

  it('answers 507 nearly full and quite full, leaves nothing behind, and recovers', async (ctx) => {
    if (!tiny) return ctx.skip(`skipped: ${skipped}`);
    const before = await state();
    expect(before.stored).toBe(1);

    // 400 KB of room: the upload's row fits, its bytes do not.
    tiny.fill(400 * 1024);
    await expectRefused(await upload(server, user.token, 'big.csv', CSV));
    expect(await state()).toEqual(before);

    // No room at all: not even for the database's row.
    tiny.fill(0);
    await expectRefused(await upload(server, user.token, 'small.txt', 'tiny'));
    await expectRefused(await upload(server, user.token, 'big.csv', CSV));
    expect(await state()).toEqual(before);

    // Still serving on a full disk.
    expect((await server.request('/api/health')).status).toBe(200);
    const kept = await server.request(`/api/download_file/${keepId}`, { token: user.token });
    expect(await kept.text()).toBe('keep me');
    // Its first preview reads the text and would cache it: no room for that, still shown.
    const preview = await server.request(`/api/preview_file/${keepId}`, { token: user.token });
    expect(await preview.json()).toMatchObject({ kind: 'text', text: 'keep me' });

    // Room again.
    tiny.free();
    const again = await uploadOk(server, user.token, 'big.csv', CSV);
    const back = await server.request(`/api/download_file/${again.id}`, { token: user.token });
    expect(Buffer.from(await back.arrayBuffer()).equals(CSV)).toBe(true);
    expect((await state()).used).toBe(before.used + CSV.length);
  });
});
