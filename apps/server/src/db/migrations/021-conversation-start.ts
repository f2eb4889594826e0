import type { Kysely } from 'kysely';

/**
 * When each user's conversation began: the last New Topic (POST /api/clearAllHistories). Job
 * results are shown in the conversation they were asked in (issue 26): the web app shows the
 * jobs created since this moment, so a New Topic clears them from the screen on every device
 * while their results stay reachable by id for their 24 hours. No row: never cleared.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('user_id', 'integer', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('started_at', 'text', (c) => c.notNull())
    .execute();
}
