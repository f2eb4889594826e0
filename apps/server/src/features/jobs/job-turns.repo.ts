import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';
import { jobsRepo, type JobRow, type Lease } from './jobs.repo';

/**
 * Turns between owners for jobs, in the job table itself, so they hold whichever process takes
 * the next job (one app server on SQLite, or several app servers and workers on PostgreSQL):
 * - the next job to start is the oldest queued one of the owner whose last job started longest
 *   ago (never counts as longest), among owners running fewer than `perOwner` jobs;
 * - on PostgreSQL the owner's row is taken with `FOR UPDATE SKIP LOCKED`: two processes choosing
 *   at once take different owners, and count the owner's running jobs again once they hold its row;
 * - a new job is refused when its owner already has `maxQueued` waiting (the owner's row is
 *   locked while counting, so two requests at once cannot both slip under the cap).
 * SQLite runs one statement at a time: its transactions are already serial.
 */
export type NewJobRow = Pick<JobRow, 'id' | 'user_id' | 'owner' | 'kind' | 'input' | 'created_at'> &
  Partial<Pick<JobRow, 'session_id'>>;

/** A job this process has just claimed, and the lease the claim holds. */
export interface Claim {
  jobId: string;
  lease: Lease;
}

export const jobTurnsRepo = {
  /** Inserts the job, or answers how many its owner already has waiting when that is the cap. */
  async insertWithinCap(
    db: Db,
    dialect: Dialect,
    row: NewJobRow,
    maxQueued: number,
  ): Promise<{ inserted: true } | { inserted: false; waiting: number }> {
    return db.transaction().execute(async (trx) => {
      await trx
        .insertInto('job_owners')
        .values({ owner: row.owner, served_at: null })
        .onConflict((oc) => oc.column('owner').doNothing())
        .execute();
      if (dialect === 'postgres') {
        await trx
          .selectFrom('job_owners')
          .select('owner')
          .where('owner', '=', row.owner)
          .forUpdate()
          .execute();
      }
      const { n } = await trx
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('owner', '=', row.owner)
        .where('state', '=', 'queued')
        .executeTakeFirstOrThrow();
      const waiting = Number(n);
      if (waiting >= maxQueued) return { inserted: false, waiting };
      await jobsRepo.insert(trx, row);
      return { inserted: true };
    });
  },

  /**
   * Claims the next job in turn for `worker` (its id and lease); undefined when none may start now. An owner another
   * process is choosing for at this instant (its row locked) is skipped, then tried again once
   * that short transaction is over, so claims at once never leave a job behind.
   */
  async claimNext(
    db: Db,
    dialect: Dialect,
    worker: string,
    now: string,
    perOwner: number,
  ): Promise<Claim | undefined> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await claimOnce(db, dialect, worker, now, perOwner);
      if (outcome !== SKIPPED) return outcome;
      if (attempt >= MAX_SKIPS) return undefined;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
    }
  },

  /**
   * Forgets owners with no job left (they count as never served next time). A job inserted while
   * its owner's row was being deleted would be left without one: the owners of queued jobs get
   * their row back at once, so such a job waits one upkeep round at most.
   */
  async forgetIdleOwners(db: Db) {
    await db
      .deleteFrom('job_owners')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('jobs').select('jobs.id').whereRef('jobs.owner', '=', 'job_owners.owner'),
          ),
        ),
      )
      .execute();
    await db
      .insertInto('job_owners')
      .columns(['owner'])
      .expression((eb) =>
        eb.selectFrom('jobs').select('jobs.owner').distinct().where('jobs.state', '=', 'queued'),
      )
      .onConflict((oc) => oc.column('owner').doNothing())
      .execute();
  },
};

const SKIPPED = Symbol('an owner was locked by another claimer');
/** Times a claim tries again while another process holds an eligible owner's row. */
const MAX_SKIPS = 50;

async function claimOnce(
  db: Db,
  dialect: Dialect,
  worker: string,
  now: string,
  perOwner: number,
): Promise<Claim | undefined | typeof SKIPPED> {
  return db.transaction().execute(async (trx) => {
    const eligible = () =>
      trx
        .selectFrom('job_owners as o')
        .select('o.owner')
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('jobs as q')
              .select('q.id')
              .whereRef('q.owner', '=', 'o.owner')
              .where('q.state', '=', 'queued'),
          ),
        )
        .where(
          (eb) =>
            eb
              .selectFrom('jobs as r')
              .select(eb.fn.countAll().as('n'))
              .whereRef('r.owner', '=', 'o.owner')
              .where('r.state', '=', 'running'),
          '<',
          perOwner,
        )
        // Never served first; then the one served longest ago; ties: the longest waiting.
        .orderBy(sql`case when o.served_at is null then 0 else 1 end`)
        .orderBy('o.served_at')
        .orderBy((eb) =>
          eb
            .selectFrom('jobs as w')
            .select((w) => w.fn.min('w.queued_at').as('since'))
            .whereRef('w.owner', '=', 'o.owner')
            .where('w.state', '=', 'queued'),
        )
        .orderBy('o.owner')
        .limit(1);
    let pick = eligible();
    if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
    const owner = (await pick.executeTakeFirst())?.owner;
    if (owner === undefined) {
      // Nothing unlocked: was an eligible owner locked by another claimer (try again), or none?
      if (dialect === 'postgres' && (await eligible().executeTakeFirst())) return SKIPPED;
      return undefined;
    }
    // PostgreSQL re-checks a row locked after another claimer's commit against the statement's
    // older snapshot of the jobs table: count the owner's running jobs again, now that we hold its
    // row, in a statement that sees every claim committed before ours.
    if (dialect === 'postgres' && (await runningOf(trx, owner)) >= perOwner) return SKIPPED;
    const job = await trx
      .selectFrom('jobs')
      .select('id')
      .where('owner', '=', owner)
      .where('state', '=', 'queued')
      .orderBy('queued_at')
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    const lease = job && (await jobsRepo.claim(trx, job.id, worker, now));
    if (!lease) return undefined;
    await trx
      .updateTable('job_owners')
      .set({ served_at: now })
      .where('owner', '=', owner)
      .execute();
    return { jobId: job.id, lease };
  });
}

async function runningOf(db: Db, owner: string): Promise<number> {
  const row = await db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner', '=', owner)
    .where('state', '=', 'running')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
