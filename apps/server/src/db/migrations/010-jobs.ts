import type { Kysely } from 'kysely';

/**
 * Long AI work as jobs (document actions, page analyses): their state, progress and result, kept
 * 24 h, and the finished parts (model calls) a resumed job does not run again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Null for anonymous page analyses (spec §6: sent without a token); reached by id alone.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('progress', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('worker', 'text')
    .addColumn('heartbeat_at', 'text')
    // The queue's message for it (pg-boss), once sent; null while only the row exists.
    .addColumn('queue_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_user').on('jobs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('jobs_state').on('jobs').columns(['state', 'heartbeat_at']).execute();

  await db.schema
    .createTable('job_parts')
    .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_parts_pk', ['job_id', 'key'])
    .execute();
}
