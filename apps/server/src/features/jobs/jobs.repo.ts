import type { Db } from '../../db/database';
import type { JobsTable, JobState } from '../../db/schema';

/**
 * Data access of jobs. State changes are conditional updates, so several processes can race for
 * a job and exactly one wins: a queued job is claimed once, a running job's lease belongs to its
 * claim until its heartbeat goes stale, a finished job never changes again. A claim is the worker
 * and the attempt number it set: the same process claiming a job again after a stall holds a new
 * lease, and the stalled run's heartbeat and finish no longer match it.
 */
export interface Lease {
  worker: string;
  attempt: number;
}

export type JobRow = JobsTable;

/** A job as lists show it: all but its result. */
export type JobSummaryRow = Omit<JobRow, 'result' | 'session_id'>;
const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'owner',
  'kind',
  'input',
  'state',
  'progress',
  'error',
  'attempts',
  'worker',
  'heartbeat_at',
  'queue_id',
  'created_at',
  'queued_at',
  'started_at',
  'finished_at',
  'expires_at',
] as const satisfies readonly (keyof JobSummaryRow)[];

/** Where a page of a user's jobs ends: its last job's creation time and id (newest first). */
export interface JobListPosition {
  created_at: string;
  id: string;
}

export const ACTIVE: JobState[] = ['queued', 'running'];

export const jobsRepo = {
  async insert(
    db: Db,
    row: Pick<JobRow, 'id' | 'user_id' | 'owner' | 'kind' | 'input' | 'created_at'> &
      Partial<Pick<JobRow, 'session_id'>>,
  ) {
    await db
      .insertInto('jobs')
      .values({ ...row, state: 'queued', attempts: 0, queued_at: row.created_at })
      .execute();
  },

  find(db: Db, id: string): Promise<JobRow | undefined> {
    return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * A page of a user's jobs, newest first, without their results (a list never carries them):
   * `limit` of them, after `after` (the last job of the page before) when given.
   */
  listByUser(
    db: Db,
    userId: number,
    limit: number,
    after?: JobListPosition,
  ): Promise<JobSummaryRow[]> {
    let query = db
      .selectFrom('jobs')
      .select(SUMMARY_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.created_at),
          eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
        ]),
      );
    return query.execute();
  },

  /** Takes a queued job for `worker`: its lease, or undefined when another process took it or it is no longer queued. */
  async claim(db: Db, id: string, worker: string, now: string): Promise<Lease | undefined> {
    const row = await db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        worker,
        heartbeat_at: now,
        started_at: eb.fn.coalesce('started_at', eb.val(now)),
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .returning('attempts')
      .executeTakeFirst();
    return row ? { worker, attempt: Number(row.attempts) } : undefined;
  },

  /**
   * Renews the lease and saves the progress; answers the job's state, or undefined when the lease
   * is no longer this claim's (the job was taken over, by another process or by this one after a
   * stall): the caller must stop.
   */
  async heartbeat(
    db: Db,
    id: string,
    lease: Lease,
    now: string,
    progress: string | null,
  ): Promise<JobState | undefined> {
    const row = await db
      .updateTable('jobs')
      .set({ heartbeat_at: now, ...(progress ? { progress } : {}) })
      .where('id', '=', id)
      .where('worker', '=', lease.worker)
      .where('attempts', '=', lease.attempt)
      .returning('state')
      .executeTakeFirst();
    return row?.state;
  },

  /** Ends a job once; false when it had already ended (cancelled meanwhile) or was taken over. */
  async finish(
    db: Db,
    id: string,
    lease: Lease,
    end: {
      state: 'done' | 'failed';
      result?: string;
      error?: string;
      now: string;
      expiresAt: string;
    },
  ): Promise<boolean> {
    const r = await db
      .updateTable('jobs')
      .set({
        state: end.state,
        result: end.result ?? null,
        error: end.error ?? null,
        finished_at: end.now,
        expires_at: end.expiresAt,
      })
      .where('id', '=', id)
      .where('worker', '=', lease.worker)
      .where('attempts', '=', lease.attempt)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Cancels a job that has not ended; false when it already had. */
  async cancel(db: Db, id: string, now: string, expiresAt: string): Promise<boolean> {
    const r = await db
      .updateTable('jobs')
      .set({ state: 'cancelled', finished_at: now, expires_at: expiresAt })
      .where('id', '=', id)
      .where('state', 'in', ACTIVE)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Jobs whose worker went silent (running, heartbeat before `staleBefore`), back in the queue. */
  async requeueStale(db: Db, staleBefore: string, now: string): Promise<string[]> {
    const stale = await db
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'running')
      .where('heartbeat_at', '<', staleBefore)
      .limit(100)
      .execute();
    const requeued: string[] = [];
    for (const job of stale) {
      // Conditional: of several processes sweeping at once, one wins each job.
      const r = await db
        .updateTable('jobs')
        .set({ state: 'queued', worker: null, queue_id: null, queued_at: now })
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .where('heartbeat_at', '<', staleBefore)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) requeued.push(job.id);
    }
    return requeued;
  },

  /** Jobs queued since before `before`, with their queue message (to check it still exists). */
  queuedSince(db: Db, before: string): Promise<Pick<JobRow, 'id' | 'queue_id'>[]> {
    return db
      .selectFrom('jobs')
      .select(['id', 'queue_id'])
      .where('state', '=', 'queued')
      .where('queued_at', '<', before)
      .orderBy('queued_at')
      .limit(100)
      .execute();
  },

  async setQueueId(db: Db, id: string, queueId: string) {
    await db
      .updateTable('jobs')
      .set({ queue_id: queueId })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  },

  /** Gives a running job back to the queue (this process is stopping). */
  async release(db: Db, id: string, lease: Lease, now: string) {
    await db
      .updateTable('jobs')
      .set({ state: 'queued', worker: null, queue_id: null, queued_at: now })
      .where('id', '=', id)
      .where('worker', '=', lease.worker)
      .where('attempts', '=', lease.attempt)
      .where('state', '=', 'running')
      .execute();
  },

  /** Every job a single process left running or queued when it stopped (SQLite: one process). */
  async requeueAllRunning(db: Db): Promise<string[]> {
    await db
      .updateTable('jobs')
      .set({ state: 'queued', worker: null })
      .where('state', '=', 'running')
      .execute();
    const rows = await db.selectFrom('jobs').select('id').where('state', '=', 'queued').execute();
    return rows.map((r) => r.id);
  },

  /** Deletes jobs whose results have expired; answers their ids (their inputs go too). */
  async deleteExpired(db: Db, now: string): Promise<string[]> {
    const rows = await db
      .deleteFrom('jobs')
      .where('expires_at', '<', now)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  },

  async delete(db: Db, id: string) {
    await db.deleteFrom('jobs').where('id', '=', id).execute();
  },

  /** Every job id of a user (whatever its state): their objects go with the account. */
  async idsOfUser(db: Db, userId: number): Promise<string[]> {
    const rows = await db.selectFrom('jobs').select('id').where('user_id', '=', userId).execute();
    return rows.map((r) => r.id);
  },

  /** A user's jobs that have not ended. */
  activeOfUser(db: Db, userId: number): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', 'in', ACTIVE)
      .execute();
  },

  /** The jobs a session started that have not ended (jobs older than migration 030 name none). */
  activeOfSession(db: Db, userId: number, sessionId: string): Promise<JobRow[]> {
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('session_id', '=', sessionId)
      .where('state', 'in', ACTIVE)
      .execute();
  },

  /** Which of `ids` still have a row. */
  async existing(db: Db, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db.selectFrom('jobs').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  },

  async getPart(db: Db, jobId: string, key: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('job_parts')
      .select('output')
      .where('job_id', '=', jobId)
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.output;
  },

  async putPart(db: Db, jobId: string, key: string, output: string) {
    await db
      .insertInto('job_parts')
      .values({ job_id: jobId, key, output })
      .onConflict((oc) => oc.columns(['job_id', 'key']).doNothing())
      .execute();
  },
};
