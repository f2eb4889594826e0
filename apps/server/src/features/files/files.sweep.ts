import { PENDING_PREFIX, filesRepo } from './files.repo';
import type { FilesDeps } from './files.service';

/** Uploads younger than this may still be running on another app server; leave them alone. */
const PENDING_GRACE_MS = 60 * 60 * 1000;

/**
 * Start-up consistency sweep: deletes stored objects no row points to, rows whose object is gone,
 * and reservations of uploads that died with a previous process. Storage of one app server (the
 * local disk) has no upload running at start-up, so every reservation is dead, however young: an
 * upload killed between storing its object and recording it leaves nothing behind. The storage's
 * own leftovers of cut-short uploads (temp files) go too.
 */
export async function sweepOrphans(deps: FilesDeps, now = Date.now()) {
  const tempRemoved = (await deps.storage.sweepTemp?.()) ?? 0;
  // Objects first, rows second: a row is inserted before its object is written, so every object
  // in this listing whose row still exists is in the row snapshot taken after it.
  const stored = new Set<string>();
  for await (const key of deps.storage.list('users/')) stored.add(key);
  const rows = await filesRepo.allRows(deps.db);

  const known = new Set<string>();
  let rowsRemoved = 0;
  for (const row of rows) {
    const pending = row.file_name.startsWith(PENDING_PREFIX);
    const stale =
      pending && (!deps.storage.shared || now - Date.parse(row.created_at) > PENDING_GRACE_MS);
    if (stale || (!pending && !stored.has(row.storage_key))) {
      await filesRepo.deleteRow(deps.db, row.id);
      rowsRemoved += 1;
    } else {
      known.add(row.storage_key);
    }
  }
  let objectsRemoved = 0;
  for (const key of stored) {
    if (known.has(key)) continue;
    await deps.storage.delete(key);
    objectsRemoved += 1;
  }
  return { rowsRemoved, objectsRemoved, tempRemoved };
}
