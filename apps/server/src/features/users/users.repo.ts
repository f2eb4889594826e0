import type { Db } from '../../db/database';

/** Data access for profiles and everything a user owns (for export and deletion). */
export const usersRepo = {
  findById: (db: Db, id: number) =>
    db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

  findIdByEmail: (db: Db, email: string) =>
    db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),

  update: (
    db: Db,
    id: number,
    patch: { first_name?: string; last_name?: string; email?: string; english_dialect?: string },
  ) => db.updateTable('users').set(patch).where('id', '=', id).execute(),

  listFiles: (db: Db, userId: number) =>
    db
      .selectFrom('files')
      .select(['file_name', 'type', 'size', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute(),

  listMessages: (db: Db, userId: number) =>
    db
      .selectFrom('chat_messages')
      .select(['role', 'content', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),

  /** Deletes the user; foreign keys cascade to tokens, files rows, messages and usage. */
  delete: (db: Db, id: number) => db.deleteFrom('users').where('id', '=', id).execute(),
};
