import SQLite from 'better-sqlite3';
import type { ExtractResult } from './reader';

/** A cached text as stored (see files.service.ts cacheText): the reader's result and its version. */
export type CachedText = ExtractResult & { reader?: number };

/** Read-only handles of SQLite files, one per file, kept by the worker thread that opened them. */
const handles = new Map<string, SQLite.Statement<[number], string>>();

/**
 * A file's cached text read and parsed in a CPU worker (src/cpu-tasks.ts) with the worker's
 * own read-only handle: better-sqlite3 reads synchronously, so megabytes of cached text read on
 * the event loop would hold up every request. WAL lets this reader run beside the server's writer.
 */
export function readCachedText(dbFile: string, fileId: number): CachedText | undefined {
  let select = handles.get(dbFile);
  if (!select) {
    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    select = db
      .prepare<[number], string>('select content from file_text_cache where file_id = ?')
      .pluck();
    handles.set(dbFile, select);
  }
  const json = select.get(fileId);
  return json === undefined ? undefined : (JSON.parse(json) as CachedText);
}
