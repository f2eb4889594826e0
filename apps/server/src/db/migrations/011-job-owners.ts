import { sql, type Kysely } from 'kysely';

/**
 * Turns between owners for jobs (features/jobs/job-turns.repo.ts): every job names its owner (the
 * user id, or `ip:<address>` for an anonymous page analysis), and each owner's last turn is kept,
 * so the next job to start is the oldest of the owner served least recently.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update jobs set owner = case when user_id is null then 'ip:unknown' else cast(user_id as text) end`.execute(
    db,
  );
  await db.schema.createIndex('jobs_owner').on('jobs').columns(['owner', 'state']).execute();
  await db.schema
    .createTable('job_owners')
    .addColumn('owner', 'text', (c) => c.primaryKey())
    // When a job of theirs last started; null: never (they go first).
    .addColumn('served_at', 'text')
    .execute();
  await sql`insert into job_owners (owner) select distinct owner from jobs`.execute(db);
}
