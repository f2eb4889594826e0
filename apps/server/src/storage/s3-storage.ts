import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  StorageFullError,
  StorageNotFoundError,
  StorageUnavailableError,
  type Storage,
} from './storage';

/** S3 needs parts of at least 5 MB (except the last); we buffer one part at a time. */
export const PART_BYTES = 5 * 1024 * 1024;

/** The subset of S3Client we use, so tests can hand in a fake. */
export type S3Like = Pick<S3Client, 'send'>;

/** Error codes S3-compatible stores answer when they have no room (MinIO, Ceph, ...). */
const FULL_CODES = new Set(['XMinioStorageFull', 'InsufficientStorage', 'QuotaExceeded']);

/**
 * An S3 failure as the product reports it: no room → StorageFullError (507); any other answer
 * or a store that cannot be reached → StorageUnavailableError (503). Either way the client
 * hears a plain sentence and the operator's log gets the store's own words.
 */
export function storageFailure(err: unknown): Error {
  if (err instanceof StorageFullError || err instanceof StorageUnavailableError) return err;
  const { name, $metadata } = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  if ($metadata?.httpStatusCode === 507 || (name !== undefined && FULL_CODES.has(name)))
    return new StorageFullError(err);
  return new StorageUnavailableError(err);
}

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, R2, ...), for deployments with several app
 * servers. An object becomes visible only when PutObject / CompleteMultipartUpload succeeds, so a
 * failed upload never leaves half an object. Memory per upload is bounded by one part.
 */
export class S3Storage implements Storage {
  readonly shared = true;

  constructor(
    private readonly client: S3Like,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const Bucket = this.bucket;
    let part: Buffer[] = [];
    let partLen = 0;
    let size = 0;
    let uploadId: string | undefined;
    const parts: { ETag?: string; PartNumber: number }[] = [];
    const flush = async () => {
      if (!uploadId) {
        const created = await this.send((c) =>
          c.send(new CreateMultipartUploadCommand({ Bucket, Key: key })),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const Body = Buffer.concat(part);
      const UploadId = uploadId;
      const res = await this.send((c) =>
        c.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body })),
      );
      parts.push({ ETag: res.ETag, PartNumber });
      part = [];
      partLen = 0;
    };
    try {
      for await (const chunk of body) {
        part.push(chunk as Buffer);
        partLen += (chunk as Buffer).length;
        size += (chunk as Buffer).length;
        if (partLen >= PART_BYTES) await flush();
      }
      if (!uploadId) {
        const Body = Buffer.concat(part);
        await this.send((c) => c.send(new PutObjectCommand({ Bucket, Key: key, Body })));
        return { size };
      }
      if (partLen > 0) await flush();
      const UploadId = uploadId;
      await this.send((c) =>
        c.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key: key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        ),
      );
      return { size };
    } catch (err) {
      if (uploadId) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }))
          .catch(() => {});
      }
      throw err;
    }
  }

  /** A request of an upload or a removal: its failures are storage failures (storageFailure). */
  private async send<T>(request: (client: S3Like) => Promise<T>): Promise<T> {
    try {
      return await request(this.client);
    } catch (err) {
      throw storageFailure(err);
    }
  }

  async check(signal: AbortSignal): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: signal,
      });
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) throw new Error(`the bucket "${this.bucket}" does not exist`);
      if (status === 403) throw new Error(`access to the bucket "${this.bucket}" is denied`);
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') throw new StorageNotFoundError(key);
      throw storageFailure(err);
    }
  }

  async delete(key: string): Promise<void> {
    await this.send((c) => c.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async deletePrefix(prefix: string): Promise<void> {
    let batch: { Key: string }[] = [];
    for await (const key of this.list(prefix)) {
      batch.push({ Key: key });
      if (batch.length === 1000) {
        await this.deleteBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.deleteBatch(batch);
  }

  private async deleteBatch(objects: { Key: string }[]) {
    const Delete = { Objects: objects, Quiet: true };
    await this.send((c) => c.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete })));
  }

  async *list(prefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const ContinuationToken = token;
      const res = await this.send((c) =>
        c.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }),
        ),
      );
      for (const obj of res.Contents ?? []) if (obj.Key) yield obj.Key;
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
  }
}
