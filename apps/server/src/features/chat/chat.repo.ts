import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ChatMessageState } from '../../db/schema';
import { nowIso } from '../../lib/time';

/** Data access for the per-user conversation (`chat_messages`) and the daily prompt counter. */
export const chatRepo = {
  /** The newest `limit` messages, returned oldest first. */
  async recentMessages(db: Db, userId: number, limit: number) {
    const rows = await db
      .selectFrom('chat_messages')
      .select(['id', 'role', 'content', 'created_at', 'state', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  },

  /** A question and the start of its reply (empty, 'streaming'); answers both ids. */
  async startExchange(db: Db, userId: number, question: string) {
    const created_at = nowIso();
    // One statement: the question is never stored without its reply.
    const rows = await db
      .insertInto('chat_messages')
      .values([
        // Every column in both rows: SQLite fills a missing one with null, not its default.
        {
          user_id: userId,
          role: 'user',
          content: question,
          created_at,
          state: 'done',
          updated_at: null,
        },
        {
          user_id: userId,
          role: 'assistant',
          content: '',
          created_at,
          state: 'streaming',
          updated_at: created_at,
        },
      ])
      .returning(['id', 'role'])
      .execute();
    return {
      questionId: rows.find((r) => r.role === 'user')!.id,
      replyId: rows.find((r) => r.role === 'assistant')!.id,
    };
  },

  /**
   * Saves a running reply's text and renews its heartbeat; answers its state ('stopping' when
   * Stop reached another app server), or undefined when it is gone (history cleared).
   */
  async saveReply(db: Db, id: number, content: string): Promise<ChatMessageState | undefined> {
    const row = await db
      .updateTable('chat_messages')
      .set({ content, updated_at: nowIso() })
      .where('id', '=', id)
      .where('state', 'in', ['streaming', 'stopping'])
      .returning('state')
      .executeTakeFirst();
    return row?.state;
  },

  /** The reply's final text, 'done' or 'stopped'. */
  endReply: (db: Db, id: number, content: string, state: 'done' | 'stopped') =>
    db
      .updateTable('chat_messages')
      .set({ content, state, updated_at: nowIso() })
      .where('id', '=', id)
      .execute(),

  /** Removes an exchange whose reply failed before its first token. */
  deleteExchange: (db: Db, ids: { questionId: number; replyId: number }) =>
    db.deleteFrom('chat_messages').where('id', 'in', [ids.questionId, ids.replyId]).execute(),

  /** One of the user's replies. */
  findReply: (db: Db, userId: number, id: number) =>
    db
      .selectFrom('chat_messages')
      .select(['id', 'content', 'state', 'updated_at'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('role', '=', 'assistant')
      .executeTakeFirst(),

  /** Asks the process running a reply to stop it (its next save sees 'stopping'). */
  requestStop: (db: Db, id: number) =>
    db
      .updateTable('chat_messages')
      .set({ state: 'stopping' })
      .where('id', '=', id)
      .where('state', '=', 'streaming')
      .execute(),

  clearMessages: (db: Db, userId: number) =>
    db.deleteFrom('chat_messages').where('user_id', '=', userId).execute(),

  /** The conversation begins again now (New Topic): what was asked before is no longer in it. */
  startConversation: (db: Db, userId: number, at: string) =>
    db
      .insertInto('conversations')
      .values({ user_id: userId, started_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ started_at: at }))
      .execute(),

  async conversationStart(db: Db, userId: number): Promise<string | null> {
    const row = await db
      .selectFrom('conversations')
      .select('started_at')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.started_at ?? null;
  },

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
