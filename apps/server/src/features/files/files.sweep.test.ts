import { PassThrough, Readable } from 'node:stream';
import { ACCOUNT_QUOTA_BYTES } from '@inkwell/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDialects, type TestServer } from '../../../test/test-app';
import type { Storage } from '../../storage/storage';
import { PENDING_PREFIX } from './files.repo';
import type { FilesDeps } from './files.service';
import { startReservationSweeper, sweepDeadReservations, sweepOrphans } from './files.sweep';
import { uploadFile } from './files.upload';
import { registerWithId, upload, uploadOk } from './test-helpers';

/** Waits until `check` holds, polling the state it reads (no fixed sleeps). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(testDialects())('files sweeps beside running uploads (%s)', (dialect) => {
  let server: TestServer;
  let deps: FilesDeps;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    deps = { db: server.app.db, dialect: server.app.dialect, storage: server.app.storage };
  });
  afterAll(() => server.close());

  const freshUser = () => registerWithId(server);
  const row = (id: number) =>
    server.app.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  const objectExists = async (key: string) => {
    for await (const k of server.app.storage.list(key)) if (k === key) return true;
    return false;
  };
  async function listedIds(token: string) {
    const res = await server.request('/api/my_files', { token });
    return ((await res.json()) as { files: { id: number }[] }).files.map((f) => f.id).sort();
  }
  /** A reservation row as an upload that died left it, `ageMs` after its last sign of life. */
  async function deadReservation(userId: number, ageMs: number, size = 1000, withObject = true) {
    const key = `users/${userId}/${Math.random().toString(36).slice(2)}`;
    const { id } = await server.app.db
      .insertInto('files')
      .values({
        user_id: userId,
        file_name: `${PENDING_PREFIX}${key}`,
        type: 'txt',
        size,
        storage_key: key,
        created_at: new Date(Date.now() - ageMs).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (withObject) await server.app.storage.put(key, Readable.from([Buffer.from('stored')]));
    return { id, key };
  }

  it('keeps every upload another server finishes while the sweep reads rows and lists objects', async () => {
    const u = await freshUser();
    const kept = await uploadOk(server, u.token, 'kept.txt', 'kept');
    const lost = await uploadOk(server, u.token, 'lost.txt', 'lost');
    const lostRow = (await row(lost.id))!;
    await server.app.storage.delete(lostRow.storage_key);
    await server.app.storage.put(`users/${u.id}/orphan`, Readable.from([Buffer.from('orphan')]));

    // Shared storage whose listing lets two uploads of "another server" finish: one before the
    // first key is listed, one after the last.
    const finished: number[] = [];
    const local = server.app.storage;
    const shared: Storage = {
      shared: true,
      put: (k, body) => local.put(k, body),
      get: (k) => local.get(k),
      delete: (k) => local.delete(k),
      deletePrefix: (p) => local.deletePrefix(p),
      check: (signal) => local.check(signal),
      async *list(prefix) {
        finished.push((await uploadOk(server, u.token, 'before.txt', 'before listing')).id);
        yield* local.list(prefix);
        finished.push((await uploadOk(server, u.token, 'after.txt', 'after listing')).id);
      },
    };
    const swept = await sweepOrphans({ ...deps, storage: shared });

    expect(swept).toMatchObject({ rowsRemoved: 1, objectsRemoved: 1 });
    expect(await listedIds(u.token)).toEqual([kept.id, ...finished].sort());
    for (const id of finished) {
      const res = await server.request(`/api/download_file/${id}`, { token: u.token });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/listing$/);
    }
    expect(await objectExists(`users/${u.id}/orphan`)).toBe(false);
  });

  it('does not count a dead reservation against the quota, even before it is swept', async () => {
    const u = await freshUser();
    await deadReservation(u.id, 2 * 60_000, ACCOUNT_QUOTA_BYTES);
    expect((await upload(server, u.token, 'fits.txt', 'fits')).status).toBe(201);
    // A live reservation of the whole quota still holds it.
    const v = await freshUser();
    await deadReservation(v.id, 0, ACCOUNT_QUOTA_BYTES);
    expect((await upload(server, v.token, 'full.txt', 'no room')).status).toBe(413);
  });

  it('sweeps dead reservations while the server runs and keeps a slow upload alive', async () => {
    const u = await freshUser();
    // Sweeps run often; a lease lasts 20 heartbeats, so only a stall of a whole second (not a
    // busy machine's usual pauses) could make the live upload look dead.
    const lease = { heartbeatMs: 50, deadAfterMs: 1000, sweepEveryMs: 25 };
    const short = { ...deps, lease };
    const stop = startReservationSweeper(short, { swept: () => {}, failed: () => {} });
    try {
      const dead = await deadReservation(u.id, 5000);
      const body = new PassThrough();
      const slow = uploadFile(short, u.id, { filename: 'slow.txt', file: body });
      body.write('the first half, ');
      const pending = () =>
        server.app.db
          .selectFrom('files')
          .select(['id', 'created_at'])
          .where('user_id', '=', u.id)
          .where('storage_key', '!=', dead.key)
          .executeTakeFirst();
      await until(async () => (await row(dead.id)) === undefined, 'dead reservation swept');
      expect(await objectExists(dead.key)).toBe(false);

      // Alive across several lease lengths of sweeps: its heartbeat keeps refreshing it.
      let first: number | undefined;
      await until(
        async () => {
          const r = await pending();
          if (!r) return false;
          first ??= Date.parse(r.created_at);
          return Date.parse(r.created_at) - first >= 2.5 * lease.deadAfterMs;
        },
        'heartbeats of the slow upload over 2.5 lease lengths',
        30_000,
      );
      body.end('the second half');
      const done = await slow;
      expect(done.file.file_name).toBe('slow.txt');
      expect(await listedIds(u.token)).toEqual([done.file.id]);
    } finally {
      stop();
    }
  });

  it('fails an upload whose reservation was swept as dead, and leaves nothing behind', async () => {
    const u = await freshUser();
    const body = new PassThrough();
    // No heartbeat within the test: the upload looks stalled.
    const lease = { heartbeatMs: 60_000, deadAfterMs: 100, sweepEveryMs: 60_000 };
    const stalled = uploadFile({ ...deps, lease }, u.id, { filename: 'stalled.txt', file: body });
    body.write('some bytes');
    const reservation = () =>
      server.app.db.selectFrom('files').select('id').where('user_id', '=', u.id).executeTakeFirst();
    await until(async () => (await reservation()) !== undefined, 'reservation made');
    expect(await sweepDeadReservations(deps, new Date(Date.now() + 1000).toISOString())).toBe(1);
    body.end(' and the rest');
    await expect(stalled).rejects.toMatchObject({
      statusCode: 503,
      message: 'The upload was interrupted. Please try again.',
    });
    expect(await reservation()).toBeUndefined();
    const left: string[] = [];
    for await (const k of server.app.storage.list(`users/${u.id}/`)) left.push(k);
    expect(left).toEqual([]);
  });
});
