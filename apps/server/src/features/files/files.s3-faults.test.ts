import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@inkwell/contract';
import { startS3FaultProxy, type S3Fault, type S3FaultProxy } from '../../../test/s3-fault-proxy';
import { startS3TestServer, type S3TestServer } from '../../../test/s3-test-server';
import { startTestServer, type TestServer } from '../../../test/test-app';
import { accountFilesState, registerWithId, upload, uploadOk } from './test-helpers';

/**
 * An S3-compatible store that answers its writes with errors (issue 36): a full store (MinIO's
 * 507) answers 507 with the product's message, any other error 503 with a plain sentence; never
 * a 500, never the store's own words; nothing stored, no row, the quota as it was; uploads work
 * again once the store does. The store is a real one (s3rver) behind a proxy that fails writes.
 */
const FULL: S3Fault = {
  status: 507,
  code: 'XMinioStorageFull',
  message: 'Storage backend has reached its minimum free drive threshold.',
};
const ERRORS: S3Fault[] = [
  { status: 500, code: 'InternalError', message: 'We encountered an internal error.' },
  { status: 403, code: 'AccessDenied', message: 'Access Denied.' },
  { status: 404, code: 'NoSuchBucket', message: 'The specified bucket does not exist.' },
];
const BUCKET = 'inkwell-faults';

describe('uploads when the S3 store fails its writes', () => {
  let s3: S3TestServer;
  let proxy: S3FaultProxy;
  let server: TestServer;
  let user: { token: string; id: number };

  beforeAll(async () => {
    s3 = await startS3TestServer({ buckets: [BUCKET] });
    proxy = await startS3FaultProxy(s3.endpoint);
    server = await startTestServer({ env: { ...s3.env(BUCKET), S3_ENDPOINT: proxy.url } });
    user = await registerWithId(server);
    await uploadOk(server, user.token, 'keep.txt', 'keep me');
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await s3?.close();
  });

  const state = async () => {
    const objects = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    return { ...(await accountFilesState(server, user)), objects: objects.KeyCount };
  };

  it('answers 507 when the store is full and 503 for its other errors, and stores nothing', async () => {
    const before = await state();
    for (const fault of [FULL, ...ERRORS]) {
      proxy.failWrites(fault);
      const failedBefore = proxy.failed;
      const res = await upload(server, user.token, 'notes.txt', 'some notes');
      const body = await res.text();
      expect(proxy.failed, fault.code).toBeGreaterThan(failedBefore);
      expect(res.status, fault.code).toBe(fault === FULL ? 507 : 503);
      expect(JSON.parse(body), fault.code).toEqual({
        error: fault === FULL ? ERROR_MESSAGES.storageFull : ERROR_MESSAGES.storageUnavailable,
      });
      expect(body).not.toContain(fault.code);
      expect(await state(), fault.code).toEqual(before);
    }

    proxy.failWrites(undefined);
    const again = await uploadOk(server, user.token, 'notes.txt', 'some notes');
    const back = await server.request(`/api/download_file/${again.id}`, { token: user.token });
    expect(await back.text()).toBe('some notes');
  });
});
