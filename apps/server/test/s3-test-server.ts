import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startListeningChild } from './listening-child';

/** s3rver accepts these credentials (and checks the requests' signatures against them). */
const ACCESS_KEY = 'S3RVER';
const entry = path.join(import.meta.dirname, 's3-server-process.ts');

export interface S3TestServer {
  endpoint: string;
  /** The settings that point Inkwell at this server and `bucket`. */
  env(bucket: string): Record<string, string>;
  /** A client of this server, configured as the product configures its own. */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real S3-speaking server (s3rver: the S3 REST API over HTTP, signatures checked, objects in a
 * temp folder) in its own process on a free loopback port, with `buckets` created.
 */
export async function startS3TestServer(opts: { buckets?: string[] } = {}): Promise<S3TestServer> {
  const directory = mkdtempSync(path.join(tmpdir(), 'inkwell-s3-'));
  const server = await startListeningChild(
    ['--openssl-legacy-provider', '--import', 'tsx', entry, directory, ...(opts.buckets ?? [])],
    { name: 's3rver' },
  );
  const endpoint = server.url;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    endpoint,
    client,
    env: (bucket) => ({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    async close() {
      client.destroy();
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
