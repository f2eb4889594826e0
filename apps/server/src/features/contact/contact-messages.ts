import type { Db } from '../../db/database';

/** The most messages the Admin page lists: the newest, which are the ones still to answer. */
export const CONTACT_MESSAGES_SHOWN = 200;

/** The contact form's stored messages, newest first. */
export async function contactMessages(db: Db) {
  const rows = await db
    .selectFrom('contact_messages')
    .select(['id', 'name', 'email', 'message', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(CONTACT_MESSAGES_SHOWN)
    .execute();
  // PostgreSQL's bigint ids come back as strings.
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}
