import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer } from '../../../test/openai-test-server';
import { startS3TestServer, type S3TestServer } from '../../../test/s3-test-server';
import {
  registerUser,
  startTestServer,
  testDialects,
  type TestServer,
} from '../../../test/test-app';
import { PENDING_PREFIX } from './files.repo';
import type { FilesDeps } from './files.service';
import { sweepOrphans } from './files.sweep';
import { upload, uploadOk } from './test-helpers';

/** Files on a real S3-speaking server (s3rver) over HTTP: uploads, downloads and the sweep. */
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3?.close());

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.each(testDialects())('files on S3 (%s)', (dialect) => {
  let server: TestServer;
  let deps: FilesDeps;
  const bucket = `inkwell-${dialect}-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    await s3.createBucket(bucket);
    server = await startTestServer({ dialect, env: s3.env(bucket) });
    deps = { db: server.app.db, dialect: server.app.dialect, storage: server.app.storage };
  });
  afterAll(() => server?.close());

  const keysOf = async (userId: number) => {
    const keys: string[] = [];
    for await (const k of server.app.storage.list(`users/${userId}/`)) keys.push(k);
    return keys.sort();
  };

  it('stores an upload larger than an S3 part and downloads it byte for byte', async () => {
    const u = await registerUser(server);
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(7 * 1024 * 1024)]);
    const file = await uploadOk(server, u.token, 'large.pdf', bytes);
    const res = await server.request(`/api/download_file/${file.id}`, { token: u.token });
    expect(res.status).toBe(200);
    expect(sha(new Uint8Array(await res.arrayBuffer()))).toBe(sha(bytes));
  });

  it('sweeps orphans and dead reservations on S3, and keeps what may still be running', async () => {
    const u = await registerUser(server);
    const id = server.app.accessTokens.verify(u.token)!.userId;
    const kept = await uploadOk(server, u.token, 'kept.txt', 'kept');
    const lost = await uploadOk(server, u.token, 'lost.txt', 'lost');
    const { storage_key: lostKey } = await server.app.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', lost.id)
      .executeTakeFirstOrThrow();
    await server.app.storage.delete(lostKey);
    await server.app.storage.put(`users/${id}/orphan`, Readable.from([Buffer.from('orphan')]));
    const reservation = async (name: string, ageMs: number) => {
      const key = `users/${id}/${name}`;
      await server.app.db
        .insertInto('files')
        .values({
          user_id: id,
          file_name: `${PENDING_PREFIX}${key}`,
          type: 'txt',
          size: 10,
          storage_key: key,
          created_at: new Date(Date.now() - ageMs).toISOString(),
        })
        .execute();
      await server.app.storage.put(key, Readable.from([Buffer.from(name)]));
      return key;
    };
    const running = await reservation('running', 1000); // another server's upload, refreshed 1 s ago
    await reservation('dead', 5 * 60_000);

    expect(await sweepOrphans(deps)).toMatchObject({
      rowsRemoved: 1,
      objectsRemoved: 1,
      reservationsRemoved: 1,
    });
    const list = (await (await server.request('/api/my_files', { token: u.token })).json()) as {
      files: { id: number }[];
    };
    expect(list.files.map((f) => f.id)).toEqual([kept.id]);
    const keptKey = (await server.app.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', kept.id)
      .executeTakeFirstOrThrow())!.storage_key;
    expect(await keysOf(id)).toEqual([keptKey, running].sort());
    expect((await upload(server, u.token, 'after.txt', 'still works')).status).toBe(201);
  });
});

describe('readiness with S3', () => {
  it('is not ready while the bucket is missing (the log names it), and ready once it exists', async () => {
    const bucket = `inkwell-ready-${randomBytes(3).toString('hex')}`;
    // A model server that answers its health check: readiness then hangs on the store alone.
    const ai = await startOpenAITestServer();
    const server = await startTestServer({
      env: { ...s3.env(bucket), AI_BASE_URL: ai.url, AI_MODEL: 'm' },
    });
    try {
      await expect.poll(() => server.app.ai.status().lastOkAt).toBeInstanceOf(Date);
      const before = await server.request('/api/ready');
      expect(before.status).toBe(503);
      expect(await before.json()).toMatchObject({
        status: 'degraded',
        database: 'ok',
        model: 'ok',
        storage: 'unavailable',
      });
      await s3.createBucket(bucket);
      const after = await server.request('/api/ready');
      expect(await after.json()).toMatchObject({ status: 'ok', storage: 'ok' });
      expect(after.status).toBe(200);
    } finally {
      await server.close();
      await ai.close();
    }
  });
});
