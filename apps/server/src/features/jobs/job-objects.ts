import type { Db } from '../../db/database';
import type { Storage } from '../../storage/storage';
import { jobsRepo } from './jobs.repo';

/**
 * A job's objects in storage live under `jobs/<id>/` (its uploaded input), outside the owner's
 * `users/<id>/`: they go when the job ends or expires, with the owner's account, and, for any
 * left behind (a crash between the two, a row cascaded away), with the periodic sweep below.
 */
export const jobPrefix = (jobId: string) => `jobs/${jobId}/`;
export const inputKey = (jobId: string) => `${jobPrefix(jobId)}input`;

/** Ids looked up per query when checking listed objects against the rows. */
const ID_BATCH = 500;

/** Deletes the objects of every job of `userId`; call before the account's rows go. */
export async function deleteJobObjectsOf(deps: { db: Db; storage: Storage }, userId: number) {
  for (const id of await jobsRepo.idsOfUser(deps.db, userId)) {
    await deps.storage.deletePrefix(jobPrefix(id));
  }
}

/**
 * Removes the job objects whose job has no row. A job's row is inserted before its input is
 * stored (jobs.service.ts create), so an object without a row is never one being created.
 * Returns how many objects it removed.
 */
export async function sweepJobObjects(deps: { db: Db; storage: Storage }): Promise<number> {
  const byJob = new Map<string, string[]>();
  for await (const key of deps.storage.list('jobs/')) {
    const id = key.split('/')[1];
    if (!id) continue;
    byJob.set(id, [...(byJob.get(id) ?? []), key]);
  }
  const ids = [...byJob.keys()];
  let removed = 0;
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const batch = ids.slice(i, i + ID_BATCH);
    const held = await jobsRepo.existing(deps.db, batch);
    for (const id of batch) {
      if (held.has(id)) continue;
      for (const key of byJob.get(id)!) await deps.storage.delete(key);
      removed += byJob.get(id)!.length;
    }
  }
  return removed;
}
