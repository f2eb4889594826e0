import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/test-app';
import { openDatabase, type Dialect } from '../database';
import { OwnSchemaPostgresDialect } from '../own-schema-dialect';
import * as initial from './001-initial';

/** The tables 001 made, as far as this test writes them. */
interface Release1 {
  users: { email: string; password_hash: string; created_at: string };
}

/** A database as the previous release left it: only 001 applied, with two accounts in it. */
async function databaseOfTheLastRelease(dialect: Dialect, dataDir: string, pgSchema: string) {
  const db =
    dialect === 'postgres'
      ? new Kysely<Release1>({
          dialect: new OwnSchemaPostgresDialect({
            pool: new pg.Pool({
              connectionString: process.env.TEST_DATABASE_URL,
              options: `-c search_path=${pgSchema}`,
            }),
          }),
        })
      : new Kysely<Release1>({
          dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'inkwell.db')) }),
        });
  if (dialect === 'postgres') await sql`create schema ${sql.id(pgSchema)}`.execute(db);
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({ '001-initial': { up: (d) => initial.up(d, dialect) } }),
    },
    migrationTableSchema: dialect === 'postgres' ? pgSchema : undefined,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  for (const email of ['founder@example.com', 'second@example.com']) {
    await db
      .insertInto('users')
      .values({ email, password_hash: 'x', created_at: new Date().toISOString() })
      .execute();
  }
  await db.destroy();
}

describe.each(testDialects())('migration 002-accounts (%s)', (dialect) => {
  it("makes an existing instance's oldest account its first account (the operator)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-mig-'));
    const pgSchema = `t_${randomBytes(6).toString('hex')}`;
    await databaseOfTheLastRelease(dialect, dataDir, pgSchema);
    const handle = await openDatabase({
      dataDir,
      databaseUrl: dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      pgSchema: dialect === 'postgres' ? pgSchema : undefined,
    });
    try {
      const users = await handle.db
        .selectFrom('users')
        .select(['id', 'email', 'role', 'disabled_at', 'last_seen_at'])
        .orderBy('id')
        .execute();
      expect(users.map((u) => [u.email, u.role, u.disabled_at, u.last_seen_at])).toEqual([
        ['founder@example.com', 'operator', null, null],
        ['second@example.com', 'user', null, null],
      ]);
      const first = await handle.db.selectFrom('first_account').selectAll().execute();
      expect(first).toEqual([{ id: 1, user_id: users[0]!.id, created_at: expect.any(String) }]);
    } finally {
      if (dialect === 'postgres') await handle.db.schema.dropSchema(pgSchema).cascade().execute();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
