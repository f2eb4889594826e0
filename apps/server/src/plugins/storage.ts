import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Settings } from '../config';
import { LocalStorage } from '../storage/local-storage';
import { S3Storage } from '../storage/s3-storage';
import type { Storage } from '../storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

/** S3-compatible storage when S3_ENDPOINT is set (several app servers), else the local disk. */
export function createStorage(config: Settings): Storage {
  if (!config.S3_ENDPOINT) return new LocalStorage(path.join(config.dataDir, 'files'));
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when S3_ENDPOINT is set');
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? {
          credentials: {
            accessKeyId: config.S3_ACCESS_KEY_ID,
            secretAccessKey: config.S3_SECRET_ACCESS_KEY,
          },
        }
      : {}),
  });
  return new S3Storage(client, config.S3_BUCKET);
}

async function storagePlugin(app: FastifyInstance) {
  app.decorate('storage', createStorage(app.config));
}

export default fp(storagePlugin, { name: 'storage' });
