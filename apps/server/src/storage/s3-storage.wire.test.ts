import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../../test/s3-test-server';
import { PART_BYTES, S3Storage, type S3Like } from './s3-storage';
import { StorageNotFoundError } from './storage';

/**
 * S3Storage against a real S3-speaking server over HTTP (s3rver), not the in-memory client of
 * storage.test.ts: signed requests, XML answers, multipart uploads, paginated listings.
 */
const BUCKET = 'inkwell-wire';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Socket-sized pieces, as an upload arrives. */
const inPieces = (bytes: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })(),
  );
const read = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const keysOf = async (storage: S3Storage, prefix: string) => {
  const keys: string[] = [];
  for await (const k of storage.list(prefix)) keys.push(k);
  return keys;
};

describe('S3 storage over the wire (s3rver)', () => {
  let s3: S3TestServer;
  /** Names of the commands S3Storage sent, in order. */
  let sent: string[];
  let storage: S3Storage;

  beforeAll(async () => {
    s3 = await startS3TestServer({ buckets: [BUCKET] });
    const counting: S3Like = {
      send: ((cmd: { constructor: { name: string } }, ...rest: unknown[]) => {
        sent.push(cmd.constructor.name);
        return (s3.client.send as (...a: unknown[]) => Promise<unknown>)(cmd, ...rest);
      }) as S3Like['send'],
    };
    storage = new S3Storage(counting, BUCKET);
  });
  afterAll(() => s3?.close());

  it('stores a file larger than a part as a multipart upload, and reads it back whole', async () => {
    sent = [];
    const bytes = randomBytes(2 * PART_BYTES + 777_777);
    expect(await storage.put('users/1/big', inPieces(bytes))).toEqual({ size: bytes.length });
    expect(sent).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    expect(sha(await read(await storage.get('users/1/big')))).toBe(sha(bytes));

    sent = [];
    await storage.put('users/1/small', inPieces(Buffer.from('one part')));
    expect(sent).toEqual(['PutObjectCommand']);
    expect((await read(await storage.get('users/1/small'))).toString()).toBe('one part');
  });

  it('aborts a multipart upload whose body fails, leaving no object', async () => {
    sent = [];
    const failing = new Readable({
      read() {
        this.push(randomBytes(PART_BYTES + 10));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.put('users/2/cut', failing)).rejects.toThrow('client went away');
    expect(sent).toContain('AbortMultipartUploadCommand');
    await expect(storage.get('users/2/cut')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await keysOf(storage, 'users/2/')).toEqual([]);
  });

  it('lists past 1,000 keys (several pages) and deletes them all by prefix', async () => {
    const keys = Array.from({ length: 1234 }, (_, i) => `users/3/${String(i).padStart(4, '0')}`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(
        keys.slice(i, i + 50).map((k) => storage.put(k, Readable.from([Buffer.from(k)]))),
      );
    }
    await storage.put('users/30/other', Readable.from([Buffer.from('another user')]));
    sent = [];
    const listed = await keysOf(storage, 'users/3/');
    expect(sent.filter((c) => c === 'ListObjectsV2Command').length).toBe(2);
    expect(listed.sort()).toEqual(keys);

    sent = [];
    await storage.deletePrefix('users/3/');
    expect(sent.filter((c) => c === 'DeleteObjectsCommand').length).toBe(2);
    expect(await keysOf(storage, 'users/3/')).toEqual([]);
    expect(await keysOf(storage, 'users/30/')).toEqual(['users/30/other']);
  });

  it('deletes one object: reading it then says not found, and deleting again is fine', async () => {
    await storage.put('users/4/a', Readable.from([Buffer.from('a')]));
    await storage.put('users/4/b', Readable.from([Buffer.from('b')]));
    await storage.delete('users/4/a');
    await expect(storage.get('users/4/a')).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.delete('users/4/a');
    expect(await keysOf(storage, 'users/4/')).toEqual(['users/4/b']);
  });

  it('is ready with its bucket, and names a missing bucket', async () => {
    await expect(storage.check(AbortSignal.timeout(3000))).resolves.toBeUndefined();
    const missing = new S3Storage(s3.client, 'no-such-bucket');
    await expect(missing.check(AbortSignal.timeout(3000))).rejects.toThrow(
      'the bucket "no-such-bucket" does not exist',
    );
  });
});
