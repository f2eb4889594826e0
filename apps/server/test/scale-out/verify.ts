import { openDatabase } from '../../src/db/database';
import { PENDING_PREFIX, sweepOrphans, UPLOAD_LEASE } from '../../src/features/files';
import { S3Storage } from '../../src/storage/s3-storage';
import type { Cluster } from './cluster';
import { sha256, type AcceptedUpload, type LoadResult } from './mixed-load';

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += width)
    await Promise.all(items.slice(i, i + width).map(fn));
}

/**
 * Every upload answered 201 during the load: listed (through the proxy) and downloaded byte for
 * byte from each app server directly. Returns the ones that are not, with why.
 */
export async function lostUploads(cluster: Cluster, load: LoadResult) {
  const reasons = new Map<AcceptedUpload, string[]>();
  const lose = (upload: AcceptedUpload, why: string) =>
    reasons.set(upload, [...(reasons.get(upload) ?? []), why]);
  await inBatches(load.users, 8, async (u) => {
    if (u.files.length === 0) return;
    const answer = await u.client.send(`${cluster.url}/api/my_files`, {
      headers: { authorization: `Bearer ${u.token}` },
    });
    const listed = new Set(
      answer.status === 200
        ? (JSON.parse(answer.body.toString()) as { files: { id: number }[] }).files.map((f) => f.id)
        : [],
    );
    for (const f of u.files) if (!listed.has(f.id)) lose(f, `not listed (${answer.status})`);
  });
  await inBatches(load.accepted, 8, async (f) => {
    for (const app of cluster.apps) {
      const answer = await f.user.client.send(`${app.url}/api/download_file/${f.id}`, {
        headers: { authorization: `Bearer ${f.user.token}` },
      });
      if (answer.status !== 200) lose(f, `${app.url}: ${answer.status}`);
      else if (sha256(answer.body) !== f.sha) lose(f, `${app.url}: differs`);
    }
  });
  return [...reasons].map(([upload, why]) => ({ id: upload.id, why: why.join(', ') }));
}

/** The files table and the bucket side by side. */
export async function storeState(cluster: Cluster) {
  const handle = await openDatabase({ databaseUrl: cluster.databaseUrl, dataDir: '/nonexistent' });
  try {
    const rows = await handle.db.selectFrom('files').select(['storage_key', 'file_name']).execute();
    const storage = new S3Storage(cluster.s3.client, cluster.bucket);
    const objects = new Set<string>();
    for await (const key of storage.list('users/')) objects.add(key);
    const pending = rows.filter((r) => r.file_name.startsWith(PENDING_PREFIX));
    const finished = rows.filter((r) => !r.file_name.startsWith(PENDING_PREFIX));
    const keys = new Set(rows.map((r) => r.storage_key));
    return {
      finished: finished.length,
      pending: pending.length,
      objects: objects.size,
      /** Finished files whose bytes are gone: always a loss. */
      rowsWithoutObject: finished.filter((r) => !objects.has(r.storage_key)).length,
      /** Stored bytes no row (finished or pending) points to: a leak. */
      objectsWithoutRow: [...objects].filter((k) => !keys.has(k)).length,
      /** Reservations of uploads cut short (e.g. by the kill) whose lease has not run out yet. */
      pendingWithObject: pending.filter((r) => objects.has(r.storage_key)).length,
    };
  } finally {
    await handle.close();
  }
}

/**
 * The start-up sweep as a server starting once the reservations' lease has run out would run it
 * (the load has stopped, so every reservation left is dead): what the kill left behind must go,
 * and nothing else.
 */
export async function sweepOnceLeaseRanOut(cluster: Cluster) {
  const handle = await openDatabase({ databaseUrl: cluster.databaseUrl, dataDir: '/nonexistent' });
  try {
    const storage = new S3Storage(cluster.s3.client, cluster.bucket);
    const later = Date.now() + UPLOAD_LEASE.deadAfterMs + 1000;
    return await sweepOrphans({ db: handle.db, dialect: handle.dialect, storage }, later);
  } finally {
    await handle.close();
  }
}
