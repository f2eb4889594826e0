import type { Db } from '../../db/database';

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

  async count(db: Db, userId: number): Promise<number> {
    const row = await db
      .selectFrom('personal_words')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },

  /** Adds the word; false when the user has it already (in any case). */
  async add(db: Db, userId: number, word: string, now: string): Promise<boolean> {
    const result = await db
      .insertInto('personal_words')
      .values({ user_id: userId, word_key: word.toLowerCase(), word, created_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'word_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

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
