import { filesRepo } from './files.repo';
import type { FilesDeps } from './files.service';
import { UPLOAD_LEASE, deadBefore } from './upload-lease';

/** Keys looked up per query when checking listed objects against the rows. */
const KEY_BATCH = 500;

/**
 * Removes dead upload reservations (see upload-lease.ts) and their objects, if any were stored.
 * Safe beside running uploads on every app server: one conditional delete takes only rows that are
 * still pending and were not refreshed within the lease. Returns how many it removed.
 */
export async function sweepDeadReservations(deps: FilesDeps, before: string) {
  const dead = await filesRepo.deleteDeadReservations(deps.db, before);
  for (const { storage_key } of dead) await deps.storage.delete(storage_key);
  return dead.length;
}

/**
 * Start-up consistency sweep: dead reservations, rows whose object is gone, stored objects no row
 * points to, and the storage's own leftovers of cut-short uploads (the local disk's temp files).
 *
 * Other app servers may be uploading and deleting meanwhile (shared storage), so nothing is removed
 * on the strength of one side's snapshot alone:
 * - Finished rows are read first, objects listed after. A row is finished only once its object is
 *   stored, so every finished row of the snapshot had its object before the listing began; one
 *   missing from the listing was deleted (its row goes with it). An upload finishing during the
 *   listing is not in the snapshot, so it is not judged. (Listing first, as this sweep once did,
 *   deleted the row of every upload another server finished in between, and left its object.)
 * - A listed object not in the snapshot may be an upload that started after it: it is removed
 *   only if no row holds its key after the listing. An object becomes visible only after its
 *   reservation's row exists, and that row goes only with the upload's own failure or a delete,
 *   which both remove the object anyway.
 *
 * A local disk belongs to one app server, which runs this before it listens: no upload can be
 * running, so every reservation is dead, however young (an upload killed between storing its
 * object and recording it leaves nothing behind).
 */
export async function sweepOrphans(deps: FilesDeps, now = Date.now()) {
  const lease = deps.lease ?? UPLOAD_LEASE;
  const tempRemoved = (await deps.storage.sweepTemp?.()) ?? 0;
  const cutoff = deps.storage.shared ? deadBefore(lease, now) : new Date(now + 1).toISOString();
  const reservationsRemoved = await sweepDeadReservations(deps, cutoff);

  const rows = await filesRepo.finishedRows(deps.db);
  const listed = new Set<string>();
  for await (const key of deps.storage.list('users/')) listed.add(key);

  let rowsRemoved = 0;
  const known = new Set<string>();
  for (const row of rows) {
    known.add(row.storage_key);
    if (listed.has(row.storage_key)) continue;
    await filesRepo.deleteRowOf(deps.db, row.id, row.storage_key);
    rowsRemoved += 1;
  }

  let objectsRemoved = 0;
  const unknown = [...listed].filter((key) => !known.has(key));
  for (let i = 0; i < unknown.length; i += KEY_BATCH) {
    const batch = unknown.slice(i, i + KEY_BATCH);
    const held = await filesRepo.keysWithRows(deps.db, batch);
    for (const key of batch) {
      if (held.has(key)) continue;
      await deps.storage.delete(key);
      objectsRemoved += 1;
    }
  }
  return { rowsRemoved, objectsRemoved, reservationsRemoved, tempRemoved };
}

/**
 * Sweeps dead reservations every `lease.sweepEveryMs`. Each app server runs one: it costs one
 * delete statement, and two servers sweeping at once take each row once. Returns stop().
 */
export function startReservationSweeper(
  deps: FilesDeps,
  report: { swept(count: number): void; failed(err: unknown): void },
) {
  const lease = deps.lease ?? UPLOAD_LEASE;
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow store: never two sweeps of one server at once
    running = true;
    sweepDeadReservations(deps, deadBefore(lease))
      .then((n) => n > 0 && report.swept(n), report.failed)
      .finally(() => (running = false));
  }, lease.sweepEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
