import type { Kysely } from 'kysely';

/** The English a user's texts are proofread in: 'auto' (read from each text) or a dialect. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('english_dialect', 'text', (c) => c.notNull().defaultTo('auto'))
    .execute();
}
