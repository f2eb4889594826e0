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
import * as accounts from './002-accounts';

/** The tables 001 made, as far as this test writes them. */
interface Release1 {
  users: { email: string; password_hash: string; created_at: string };
}

/**
 * A database as a previous release left it: 001 applied, with two accounts created a day ago;
 * with `oldGrant`, also 002 as it was, which made the oldest account the operator.
 */
async function databaseOfTheLastRelease(
  dialect: Dialect,
  dataDir: string,
  pgSchema: string,
  oldGrant = false,
) {
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
  const migrate = async (
    names: Record<string, { up(d: Kysely<unknown>, x: Dialect): Promise<void> }>,
  ) => {
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () =>
          Object.fromEntries(
            Object.entries(names).map(([name, m]) => [name, { up: (d) => m.up(d, dialect) }]),
          ),
      },
      migrationTableSchema: dialect === 'postgres' ? pgSchema : undefined,
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  };
  await migrate({ '001-initial': initial });
  const dayAgo = new Date(Date.now() - 24 * 3600_000).toISOString();
  for (const email of ['founder@example.com', 'second@example.com']) {
    await db
      .insertInto('users')
      .values({ email, password_hash: 'x', created_at: dayAgo })
      .execute();
  }
  if (oldGrant) {
    await migrate({ '001-initial': initial, '002-accounts': accounts });
    // What 002 did before issue 26.
    await sql`update users set role = 'operator'
      where id = (select user_id from first_account where id = 1)`.execute(db);
  }
  await db.destroy();
}

describe.each(testDialects())('migration 002-accounts (%s)', (dialect) => {
  it.each([
    ['from the release before accounts', false],
    ['that had made its oldest account the operator', true],
  ])(
    'an upgrade %s makes nobody an operator; the oldest account is the first',
    async (_, oldGrant) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-mig-'));
      const pgSchema = `t_${randomBytes(6).toString('hex')}`;
      await databaseOfTheLastRelease(dialect, dataDir, pgSchema, oldGrant);
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
          ['founder@example.com', 'user', null, null],
          ['second@example.com', 'user', null, null],
        ]);
        const first = await handle.db.selectFrom('first_account').selectAll().execute();
        expect(first).toEqual([{ id: 1, user_id: users[0]!.id, created_at: expect.any(String) }]);
      } finally {
        if (dialect === 'postgres') await handle.db.schema.dropSchema(pgSchema).cascade().execute();
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
