import type { Kysely } from 'kysely';

/**
 * Who is indexing a file now, when several app servers share one PostgreSQL database
 * (features/documents/knowledge/search-claims.repo.ts): a row per file and kind of work (its
 * terms, its vectors), held by one indexer under a lease it renews; a server that dies lets its
 * claims expire. `expires_at` is an ISO time, as the jobs' heartbeats are. SQLite has one
 * process and never writes it. Deleting a file deletes its claims by cascade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_claims')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    // 'terms' | 'vectors'
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_claims_pk', ['file_id', 'kind'])
    .execute();
}
