import type { Kysely } from 'kysely';

/**
 * The session (refresh-token family) that started each job, so a logout stops only the work of
 * the device that logs out (issue 36). Null: an anonymous page analysis, or a job older than this.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('session_id', 'text').execute();
}
