import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept prepared; the product issues a few dozen shapes. */
const DEFAULT_CAPACITY = 500;

/**
 * A better-sqlite3 database whose `prepare` reuses statements by their SQL text. Kysely's SQLite
 * driver prepares every query anew, which costs SQLite's parse and plan on every request (each
 * authenticated request runs at least one query). Reuse is safe: the driver holds its single
 * connection for a whole query or stream, so no statement is ever run twice at once.
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = DEFAULT_CAPACITY,
): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first key is the one to evict.
        statements.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
