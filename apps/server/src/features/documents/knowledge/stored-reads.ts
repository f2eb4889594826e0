import { readOnlyStatement } from '../../../db/read-only-statements';
import { unpack, type Stored } from './packed-text';

/**
 * The search index's ranking query run in a passage worker (retrieval/passage-worker.ts) on the
 * worker's own read-only handle of the SQLite file: an FTS5 ranking over an account's 100 MB plus
 * inflating its passages' blocks held the event loop for tens of milliseconds a question
 * (/api/health p99 70 ms while 4 users asked, bench/ask-files-health.bench.ts).
 */
export function readStored(
  dbFile: string,
  query: { sql: string; parameters: readonly unknown[] },
): unknown[] {
  const rows = readOnlyStatement(dbFile, query.sql).all(...query.parameters);
  return unpack(rows as (Stored & { file_id: number })[]);
}
