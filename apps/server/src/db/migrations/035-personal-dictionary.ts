import type { Kysely } from 'kysely';

/**
 * Each user's personal dictionary (issue 40): words proofreading takes as written for them.
 * `word_key` is the word in lower case, so one word is kept once whatever its case.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('personal_words')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('word_key', 'text', (c) => c.notNull())
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('personal_words_pk', ['user_id', 'word_key'])
    .execute();
}
