import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';

/** Data access of the personal dictionaries. */
export const dictionaryRepo = {
  async words(db: Db, userId: number): Promise<string[]> {
    const rows = await db
      .selectFrom('personal_words')
      .select('word')
      .where('user_id', '=', userId)
      .orderBy('word_key')
      .execute();
    return rows.map((r) => r.word);
  },

  /**
   * Adds the word unless the user has it already (in any case) or has `cap` words: 'added',
   * 'exists' or 'full'. The count and the insert are one statement, and on PostgreSQL the user's
   * row is locked first, so parallel adds of one user queue here and never pass the cap (SQLite's
   * single writer already runs one statement at a time).
   */
  add: (db: Db, dialect: Dialect, w: { userId: number; word: string; now: string; cap: number }) =>
    db.transaction().execute(async (trx): Promise<'added' | 'exists' | 'full'> => {
      if (dialect === 'postgres') {
        await sql`select id from users where id = ${w.userId} for update`.execute(trx);
      }
      const key = w.word.toLowerCase();
      const result = await trx
        .insertInto('personal_words')
        .columns(['user_id', 'word_key', 'word', 'created_at'])
        .expression(
          trx
            .selectNoFrom((eb) => [
              eb.val(w.userId).as('user_id'),
              eb.val(key).as('word_key'),
              eb.val(w.word).as('word'),
              eb.val(w.now).as('created_at'),
            ])
            .where(
              (eb) =>
                eb
                  .selectFrom('personal_words')
                  .select((c) => c.fn.countAll().as('n'))
                  .where('user_id', '=', w.userId),
              '<',
              w.cap,
            ),
        )
        .onConflict((oc) => oc.columns(['user_id', 'word_key']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return 'added';
      const there = await trx
        .selectFrom('personal_words')
        .select('word_key')
        .where('user_id', '=', w.userId)
        .where('word_key', '=', key)
        .executeTakeFirst();
      return there ? 'exists' : 'full';
    }),

  /** Removes the word (in any case); false when it was not there. */
  async remove(db: Db, userId: number, word: string): Promise<boolean> {
    const result = await db
      .deleteFrom('personal_words')
      .where('user_id', '=', userId)
      .where('word_key', '=', word.toLowerCase())
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },
};
