import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** What the Admin page and `npm run users` read and change about accounts. */
export const adminRepo = {
  /**
   * Every account with its files, storage and prompts of `day`, oldest first. One statement:
   * correlated sub-queries over the indexed user_id columns, summed in the database.
   */
  listUsers: (db: Db, day: string, onlyId?: number) =>
    db
      .selectFrom('users as u')
      .select([
        'u.id',
        'u.email',
        'u.first_name',
        'u.last_name',
        'u.role',
        'u.created_at',
        'u.last_seen_at',
        'u.disabled_at',
        // Casts: PostgreSQL answers count() and sum() as bigint and numeric (strings in JS).
        sql<number>`(select cast(count(*) as integer) from files f where f.user_id = u.id)`.as(
          'files',
        ),
        sql<number>`(select cast(coalesce(sum(f.size), 0) as bigint) from files f where f.user_id = u.id)`.as(
          'storage_bytes',
        ),
        sql<number>`coalesce((select p.count from prompt_usage p where p.user_id = u.id and p.day = ${day}), 0)`.as(
          'prompts_today',
        ),
      ])
      .$if(onlyId !== undefined, (q) => q.where('u.id', '=', onlyId!))
      .orderBy('u.id')
      .execute(),

  findIdByEmail: (db: Db, email: string) =>
    db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst(),

  exists: async (db: Db, id: number) =>
    Boolean(await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()),

  setRole: (db: Db, id: number, role: 'operator' | 'user') =>
    db.updateTable('users').set({ role }).where('id', '=', id).execute(),

  setDisabledAt: (db: Db, id: number, disabled_at: string | null) =>
    db.updateTable('users').set({ disabled_at }).where('id', '=', id).execute(),
};
