import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The search index's passage texts stored in blocks (features/documents/knowledge/passages.ts):
 * a file's passages deflated together, ~8 KB of text a block, each passage its bytes' place in
 * its block. Deflating each passage alone cost ~30 µs a call, two fifths of indexing, and
 * compressed less. Every file is indexed again by the indexer's sweep (its rows are removed here;
 * on SQLite the trigger removes their FTS5 rows).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await sql`delete from search_passages`.execute(db);
  await sql`delete from search_files`.execute(db);
  await db.schema
    .createTable('search_blocks')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('block', 'integer', (c) => c.notNull())
    .addColumn('packed', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_blocks_pk', ['file_id', 'block'])
    .execute();
  await db.schema.alterTable('search_passages').dropColumn('packed').execute();
  for (const column of ['block', 'block_at', 'block_size'])
    await db.schema
      .alterTable('search_passages')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
}
