import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * SQLite's search index (FTS5) merges its segments less often while files are indexed: each
 * file's rows are a transaction, so a segment, and FTS5's default (automerge 4) merged on nearly
 * every insert, on the event loop. At 16, a folder's bulk upload indexed at 6.0-6.3 MB/s, not
 * 5.4 (ask-files bench, filler, upload included); the indexer merges the rest when it has
 * nothing to do (features/documents/knowledge/segment-merge.ts). The setting is kept in the
 * index's own config table.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await sql`insert into search_fts(search_fts, rank) values ('automerge', 16)`.execute(db);
}
