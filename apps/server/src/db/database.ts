import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { OwnSchemaPostgresDialect } from './own-schema-dialect';
import { RollbackSafeSqliteDialect } from './rollback-safe-sqlite-dialect';
import pg from 'pg';
import type { Dialect } from './dialect';
import type { Database } from './schema';
import { migrateToLatest } from './migrate';
import { withStatementCache } from './statement-cache';

export type { Dialect } from './dialect';

/** SQLite's sync setting for every ordinary commit (see openSqlite); withUnsyncedCommit restores it. */
export const SQLITE_DURABLE_SYNC = 'synchronous = FULL';
export type Db = Kysely<Database>;

/** The file of each SQLite database opened here: a worker thread may read it with its own handle. */
const sqliteFiles = new WeakMap<Db, string>();

/** The SQLite file behind `db`; undefined for PostgreSQL. */
export const sqliteFileOf = (db: Db): string | undefined => sqliteFiles.get(db);

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; unset means SQLite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  pgSchema?: string;
  /**
   * PostgreSQL: told when an idle pooled connection fails (the server restarted, the network cut
   * it). The pool drops that connection and opens a new one on the next query.
   */
  onIdleConnectionError?: (err: Error) => void;
}

/** Opens the database, applies every pending migration and returns the handle. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const handle = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.pgSchema, opts.onIdleConnectionError)
    : openSqlite(opts.dataDir);
  await migrateToLatest(handle.db, handle.dialect);
  return handle;
}

function openSqlite(dataDir: string): DatabaseHandle {
  const fileName = path.join(dataDir, 'inkwell.db');
  const file = new SQLite(fileName);
  // WAL lets readers run beside the single writer; foreign keys make deletes cascade. FULL syncs
  // the log at every commit: with NORMAL a power cut can roll back a file the user was told is
  // saved (its bytes are fsync'd before the row is written), and the start-up sweep would then
  // delete it. (withUnsyncedCommit lowers it for one write that no user saved.)
  file.pragma('journal_mode = WAL');
  file.pragma(SQLITE_DURABLE_SYNC);
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new RollbackSafeSqliteDialect({ database: withStatementCache(file) }, file),
  });
  sqliteFiles.set(db, fileName);
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

async function openPostgres(
  url: string,
  schema: string | undefined,
  onIdleError: (err: Error) => void = () => {},
): Promise<DatabaseHandle> {
  // BIGINT (file sizes) comes back as a JS number: our values are far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection that fails (a PostgreSQL restart ends every session) emits `error`: the pool's
  // when idle, the connection's own while a query or transaction holds it. Without a listener,
  // Node throws it as an uncaught exception and the process ends. Idle: the pool drops it. Held:
  // its query fails with it, and the pool drops it when it is released.
  pool.on('error', onIdleError);
  pool.on('connect', (client) => client.on('error', () => {}));
  if (schema) {
    const client = await pool.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
    } finally {
      client.release();
    }
  }
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  await sql`select 1`.execute(db);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
