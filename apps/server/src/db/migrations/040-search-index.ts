import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The search index of questions across files (issue 35, features/documents/knowledge): a row per file with
 * its state, and its passages, each with the owner's user id so a question's query is scoped by
 * it. The terms are the retrieval's language-aware terms (hashed to ASCII): on SQLite an FTS5
 * table without content (the passage text is kept once, in search_passages), keyed by
 * file_id × 2^20 + ord; on PostgreSQL a tsvector column with a GIN index. Deleting a file (or its
 * account) deletes its rows by cascade; a trigger removes its FTS5 rows.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('search_files')
    .addColumn('file_id', 'integer', (c) =>
      c.primaryKey().references('files.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'reading' | 'searchable' | 'unreadable'
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('passages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('chars', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reader', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_files_user')
    .on('search_files')
    .columns(['user_id', 'state'])
    .execute();

  let passages = db.schema
    .createTable('search_passages')
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('ord', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('char_start', 'integer', (c) => c.notNull())
    .addColumn('char_end', 'integer', (c) => c.notNull())
    .addColumn('length', 'integer', (c) => c.notNull())
    // The passage's text, deflated (the index stays smaller than the text it indexes).
    .addColumn('packed', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_passages_pk', ['file_id', 'ord']);
  if (dialect === 'postgres')
    passages = passages.addColumn('terms', sql`tsvector`, (c) => c.notNull());
  await passages.execute();

  if (dialect === 'postgres') {
    await sql`create index search_passages_terms on search_passages using gin (terms)`.execute(db);
    await db.schema
      .createIndex('search_passages_user')
      .on('search_passages')
      .column('user_id')
      .execute();
    return;
  }
  await sql`create virtual table search_fts using fts5(owner, terms, content='', contentless_delete=1)`.execute(
    db,
  );
  await sql`create trigger search_passages_gone after delete on search_passages begin
    delete from search_fts where rowid = old.file_id * 1048576 + old.ord;
  end`.execute(db);
}
