import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage';
import { PART_BYTES, S3Storage, type S3Like } from './s3-storage';
import { StorageNotFoundError, type Storage } from './storage';

/**
 * An in-memory stand-in for the S3 API (no S3 server in this environment): enough of PutObject,
 * multipart uploads, GetObject, DeleteObject(s) and ListObjectsV2 to exercise S3Storage's logic.
 * It does not prove wire compatibility with a real S3/MinIO; that needs an integration run.
 */
interface FakeInput {
  Key: string;
  Body: Buffer;
  UploadId: string;
  PartNumber: number;
  Prefix: string;
  ContinuationToken?: string;
  Delete: { Objects: { Key: string }[] };
}

function fakeS3() {
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, Buffer[]>();
  const calls: string[] = [];
  const client: S3Like = {
    send: (async (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const name = cmd.constructor.name;
      const input = cmd.input as unknown as FakeInput;
      calls.push(name);
      switch (name) {
        case 'PutObjectCommand':
          objects.set(input.Key, input.Body);
          return {};
        case 'CreateMultipartUploadCommand':
          uploads.set(`u${uploads.size}`, []);
          return { UploadId: `u${uploads.size - 1}` };
        case 'UploadPartCommand':
          uploads.get(input.UploadId)![input.PartNumber - 1] = input.Body;
          return { ETag: `e${input.PartNumber}` };
        case 'CompleteMultipartUploadCommand':
          objects.set(input.Key, Buffer.concat(uploads.get(input.UploadId)!));
          return {};
        case 'AbortMultipartUploadCommand':
          uploads.delete(input.UploadId);
          return {};
        case 'GetObjectCommand': {
          const body = objects.get(input.Key);
          if (!body) throw Object.assign(new Error('nope'), { name: 'NoSuchKey' });
          return { Body: Readable.from([body]) };
        }
        case 'DeleteObjectCommand':
          objects.delete(input.Key);
          return {};
        case 'DeleteObjectsCommand':
          for (const o of input.Delete.Objects) objects.delete(o.Key);
          return {};
        case 'ListObjectsV2Command': {
          // two keys per page, to exercise continuation
          const keys = [...objects.keys()].filter((k) => k.startsWith(input.Prefix)).sort();
          const start = Number(input.ContinuationToken ?? 0);
          const page = keys.slice(start, start + 2);
          const more = start + 2 < keys.length;
          return {
            Contents: page.map((Key) => ({ Key })),
            IsTruncated: more,
            NextContinuationToken: String(start + 2),
          };
        }
      }
      throw new Error(`unexpected ${name}`);
    }) as unknown as S3Like['send'],
  };
  return { client, objects, calls };
}

const read = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const failing = () =>
  new Readable({
    read() {
      this.push(Buffer.alloc(PART_BYTES + 10));
      this.destroy(new Error('client went away'));
    },
  });

const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['local', () => ({ storage: new LocalStorage(dir) as Storage, fake: undefined })],
  [
    's3 (fake client)',
    () => {
      const fake = fakeS3();
      return { storage: new S3Storage(fake.client, 'b') as Storage, fake };
    },
  ],
])('%s storage', (_name, make) => {
  it('puts, gets, lists, deletes and deletes by prefix', async () => {
    const { storage } = make();
    const big = Buffer.alloc(PART_BYTES * 2 + 123, 7);
    expect(await storage.put('users/1/a', Readable.from([big]))).toEqual({ size: big.length });
    await storage.put('users/1/b', Readable.from([Buffer.from('b')]));
    await storage.put('users/1/c', Readable.from([Buffer.from('c')]));
    await storage.put('users/2/d', Readable.from([Buffer.from('d')]));
    expect((await read(await storage.get('users/1/a'))).equals(big)).toBe(true);
    const keys: string[] = [];
    for await (const k of storage.list('users/1/')) keys.push(k);
    expect(keys.sort()).toEqual(['users/1/a', 'users/1/b', 'users/1/c']);
    await storage.delete('users/1/b');
    await expect(storage.get('users/1/b')).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.deletePrefix('users/1/');
    const left: string[] = [];
    for await (const k of storage.list('users/')) left.push(k);
    expect(left).toEqual(['users/2/d']);
  });

  it('stores again under a prefix that was deleted whole', async () => {
    const { storage } = make();
    await storage.put('users/4/a', Readable.from([Buffer.from('a')]));
    await storage.deletePrefix('users/4/');
    await storage.put('users/4/b', Readable.from([Buffer.from('b')]));
    expect((await read(await storage.get('users/4/b'))).toString()).toBe('b');
  });

  it('leaves nothing behind when the body fails mid-way', async () => {
    const { storage, fake } = make();
    await expect(storage.put('users/3/x', failing())).rejects.toThrow('client went away');
    const keys: string[] = [];
    for await (const k of storage.list('users/3/')) keys.push(k);
    expect(keys).toEqual([]);
    if (fake) expect(fake.calls).toContain('AbortMultipartUploadCommand');
    else expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });
});

describe('local storage temp files', () => {
  it('are all swept at start-up: they are what a crash left of cut-short uploads', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'inkwell-sweep-'));
    try {
      const storage = new LocalStorage(root);
      expect(await storage.sweepTemp()).toBe(0); // no temp directory yet
      mkdirSync(path.join(root, '.tmp'));
      writeFileSync(path.join(root, '.tmp', 'a'), 'half an upload');
      writeFileSync(path.join(root, '.tmp', 'b'), 'another');
      await storage.put('users/1/kept', Readable.from([Buffer.from('kept')]));
      expect(await storage.sweepTemp()).toBe(2);
      expect(readdirSync(path.join(root, '.tmp'))).toEqual([]);
      expect((await read(await storage.get('users/1/kept'))).toString()).toBe('kept');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
