import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { unpack, type Stored } from './packed-text';

/**
 * The search index's ranking query run in a passage worker (retrieval/passage-worker.ts) with
 * the worker's own read-only handle of the SQLite file: better-sqlite3 is synchronous, and an FTS5
 * ranking over an account's 100 MB plus inflating its passages' blocks held the event loop for
 * tens of milliseconds a question (/api/health p99 70 ms while 4 users asked,
 * bench/ask-files-health.bench.ts). WAL lets these readers run beside the server's writer, each
 * statement on the newest committed index.
 */
interface Handle {
  db: SQLite.Database;
  statements: Map<string, SQLite.Statement>;
  /** The file's inode when opened: a database replaced at the same path (a restore) is reopened. */
  inode: number;
}

/** Files open at once (a test run opens many servers' databases; a server, one). */
const MAX_FILES = 4;
/** Statements kept per file: a question's SQL differs by its number of terms. */
const MAX_STATEMENTS = 64;
const handles = new Map<string, Handle>();

function handleOf(dbFile: string): Handle {
  const inode = statSync(dbFile).ino;
  let h = handles.get(dbFile);
  handles.delete(dbFile); // re-inserted: the Map's order is the recency order
  if (h && h.inode !== inode) {
    h.db.close();
    h = undefined;
  }
  if (!h) {
    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    h = { db, statements: new Map(), inode };
  }
  handles.set(dbFile, h);
  for (const [file, old] of handles) {
    if (handles.size <= MAX_FILES) break;
    handles.delete(file);
    old.db.close();
  }
  return h;
}

/** The rows of a compiled query, their passages' texts unpacked. */
export function readStored(
  dbFile: string,
  query: { sql: string; parameters: readonly unknown[] },
): unknown[] {
  const h = handleOf(dbFile);
  let statement = h.statements.get(query.sql);
  if (!statement) {
    if (h.statements.size >= MAX_STATEMENTS) h.statements.clear();
    statement = h.db.prepare(query.sql);
    h.statements.set(query.sql, statement);
  }
  const rows = statement.all(...query.parameters) as (Stored & { file_id: number })[];
  return unpack(rows);
}
