import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { nowIso } from '../../lib/time';

/** Data access for the per-user conversation (`chat_messages`) and the daily prompt counter. */
export const chatRepo = {
  /** The newest `limit` messages, returned oldest first. */
  async recentMessages(db: Db, userId: number, limit: number) {
    const rows = await db
      .selectFrom('chat_messages')
      .select(['id', 'role', 'content', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  },

  /** A question and its reply, stored together so history never holds a question without answer. */
  addExchange: (db: Db, userId: number, question: string, reply: string) =>
    db.transaction().execute(async (trx) => {
      const created_at = nowIso();
      await trx
        .insertInto('chat_messages')
        .values([
          { user_id: userId, role: 'user', content: question, created_at },
          { user_id: userId, role: 'assistant', content: reply, created_at },
        ])
        .execute();
    }),

  clearMessages: (db: Db, userId: number) =>
    db.deleteFrom('chat_messages').where('user_id', '=', userId).execute(),

  async usage(db: Db, userId: number, day: string): Promise<number> {
    const row = await db
      .selectFrom('prompt_usage')
      .select('count')
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row?.count ?? 0;
  },

  /**
   * Takes one prompt of the day's allowance in a single statement (an upsert guarded by the
   * limit), so parallel requests can never exceed it. Returns the new count, or null at the cap.
   */
  async reservePrompt(db: Db, userId: number, day: string, limit: number): Promise<number | null> {
    const row = await db
      .insertInto('prompt_usage')
      .values({ user_id: userId, day, count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'day'])
          .doUpdateSet({ count: sql<number>`prompt_usage.count + 1` })
          .where('prompt_usage.count', '<', limit),
      )
      .returning('count')
      .executeTakeFirst();
    return row ? Number(row.count) : null;
  },

  /** Gives back a reserved prompt whose reply failed or was cancelled. */
  releasePrompt: (db: Db, userId: number, day: string) =>
    db
      .updateTable('prompt_usage')
      .set({ count: sql<number>`count - 1` })
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .where('count', '>', 0)
      .execute(),
};
