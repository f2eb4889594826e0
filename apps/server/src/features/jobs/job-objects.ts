import type { Db } from '../../db/database';
import type { AccountCleanup } from '../../lib/account-cleanup';
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
 * A deleted account's job inputs: they live under jobs/<id>/, outside users/<id>/, and go before
 * the account's rows, while those still say which jobs are its.
 */
export function jobsAccountCleanup(deps: { db: Db; storage: Storage }): AccountCleanup {
  return {
    feature: 'jobs',
    removes: "the inputs of the account's jobs (jobs/<id>/ in storage)",
    when: 'before-rows',
    run: (userId) => deleteJobObjectsOf(deps, userId),
  };
}

/**
 * Removes the job objects whose job has had no row at two sweeps in a row. A job's input is
 * stored just before its row is inserted (jobs.service.ts create: a queued row may be claimed at
 * once, so its input must already be there); an object found without a row is only a suspect
 * until the next sweep, by when any job being created has its row. `suspects` carries the ids
 * from one sweep to the next. Returns how many objects it removed.
 */
export async function sweepJobObjects(
  deps: { db: Db; storage: Storage },
  suspects: Set<string>,
): Promise<number> {
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
      if (held.has(id)) {
        suspects.delete(id);
        continue;
      }
      if (!suspects.has(id)) {
        suspects.add(id);
        continue;
      }
      suspects.delete(id);
      for (const key of byJob.get(id)!) await deps.storage.delete(key);
      removed += byJob.get(id)!.length;
    }
  }
  return removed;
}
