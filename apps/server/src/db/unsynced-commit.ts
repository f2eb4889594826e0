import { sql, type Transaction } from 'kysely';
import { SQLITE_DURABLE_SYNC, type Db, type Dialect } from './database';
import type { Database } from './schema';

/**
 * Runs `write` in a transaction whose commit does not wait for the disk. Only for bookkeeping
 * whose loss in a power cut harms nobody (the chat's prompt counter, an upload's quota
 * reservation), on paths a user waits on: an ordinary commit's fsync costs about a millisecond
 * here. A crash of the process loses nothing (SQLite's WAL file and the PostgreSQL server keep the
 * commit); a power cut may roll back the last such commits, and the next ordinary commit makes
 * them durable too.
 */
export function withUnsyncedCommit<T>(
  db: Db,
  dialect: Dialect,
  write: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (dialect === 'postgres') {
    return db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      return write(trx);
    });
  }
  // One connection throughout, so no other commit runs unsynced in between.
  return db.connection().execute(async (conn) => {
    await sql`pragma synchronous = normal`.execute(conn);
    try {
      return await conn.transaction().execute(write);
    } finally {
      await sql.raw(`pragma ${SQLITE_DURABLE_SYNC}`).execute(conn);
    }
  });
}
