import type { Kysely } from 'kysely';

/**
 * Chat replies survive Stop, a closed tab and another device (issue 26): the exchange is stored
 * as the reply starts, its text saved while it is generated. `state` is 'streaming' while the
 * reply runs (`stopping` once Stop asked another app server to stop it), then 'done' or
 * 'stopped'; `updated_at` is the running reply's heartbeat (a 'streaming' row whose process died
 * goes stale and is shown as stopped). Existing messages are complete ('done').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per statement.
  await db.schema
    .alterTable('chat_messages')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('done'))
    .execute();
  await db.schema.alterTable('chat_messages').addColumn('updated_at', 'text').execute();
}
