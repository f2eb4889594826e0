import { statSync } from 'node:fs';
import SQLite from 'better-sqlite3';

/**
 * Prepared statements on read-only handles of SQLite files, for worker threads that read the
 * database off the event loop (better-sqlite3 is synchronous: megabytes read on the event loop
 * would hold up every request). WAL lets these readers run beside the server's one writer, each
 * statement on the newest commit. Kept per thread: a few files (a test run opens many servers'
 * databases; a server, one), each with its statements; a file replaced at the same path (a
 * restore) is opened again, never read through the old handle.
 */
interface Handle {
  db: SQLite.Database;
  statements: Map<string, SQLite.Statement>;
  /** The file's inode when opened. */
  inode: number;
}

const MAX_FILES = 4;
/** Statements kept per file (a search's SQL differs by its number of terms). */
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

/** A statement of `sql` on a read-only handle of `dbFile`. */
export function readOnlyStatement(dbFile: string, sql: string): SQLite.Statement {
  const h = handleOf(dbFile);
  let statement = h.statements.get(sql);
  if (!statement) {
    if (h.statements.size >= MAX_STATEMENTS) h.statements.clear();
    statement = h.db.prepare(sql);
    h.statements.set(sql, statement);
  }
  return statement;
}
