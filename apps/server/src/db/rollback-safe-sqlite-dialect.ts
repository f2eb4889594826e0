import type BetterSqlite from 'better-sqlite3';
import {
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM:
 * "the transaction is rolled back automatically"). Kysely then sends its own ROLLBACK, which
 * fails with "cannot rollback - no transaction is active" and is thrown in place of the error
 * that mattered: a full disk became an unexplained 500. This driver rolls back only a
 * transaction that is still open, so the first error is the one that surfaces.
 */
class RollbackSafeSqliteDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly file: BetterSqlite.Database,
  ) {
    super(config);
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.file.inTransaction) await super.rollbackTransaction(connection);
  }
}

/** Kysely's SQLite dialect on `file`, with the driver above. */
export class RollbackSafeSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly file: BetterSqlite.Database,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new RollbackSafeSqliteDriver(this.config, this.file);
  }
}
