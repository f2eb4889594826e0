import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { testDialects } from '../../test/test-app';
import { openDatabase, type DatabaseHandle } from './database';
import { withStatementCache } from './statement-cache';
import { withUnsyncedCommit } from './unsynced-commit';

describe('withStatementCache', () => {
  const open = () => new Database(':memory:');

  it('prepares each SQL text once and reuses the statement', () => {
    const raw = open();
    let prepared = 0;
    const counting = {
      close: () => raw.close(),
      prepare: (s: string) => (prepared++, raw.prepare(s)),
    };
    const db = withStatementCache(counting);
    const first = db.prepare('select 1 as one');
    expect(db.prepare('select 1 as one')).toBe(first);
    expect(db.prepare('select 2 as two')).not.toBe(first);
    expect(prepared).toBe(2);
    expect(first.all([])).toEqual([{ one: 1 }]);
    db.close();
  });

  it('evicts the least recently used statement at capacity', () => {
    const raw = open();
    const db = withStatementCache(raw, 2);
    const a = db.prepare('select 1');
    const b = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a); // now b is the oldest
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 2')).not.toBe(b);
    db.close();
    expect(raw.open).toBe(false);
  });
});

describe.each(testDialects())('withUnsyncedCommit on %s', (dialect) => {
  let handle: DatabaseHandle | undefined;
  let dataDir: string | undefined;
  let pgSchema: string | undefined;
  afterEach(async () => {
    if (handle && pgSchema) await handle.db.schema.dropSchema(pgSchema).cascade().execute();
    await handle?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function openTestDatabase() {
    dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-db-'));
    pgSchema = dialect === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
    handle = await openDatabase({
      dataDir,
      databaseUrl: dialect === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      pgSchema,
    });
    return handle.db;
  }

  /** The durability setting ordinary commits run with. */
  const durability = async (db: DatabaseHandle['db']) =>
    dialect === 'postgres'
      ? (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]
          ?.synchronous_commit
      : (await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous;

  it('commits the write with the fsync off for it only, and rolls back on failure', async () => {
    const db = await openTestDatabase();
    const ordinary = await durability(db);
    expect(ordinary).toBe(dialect === 'postgres' ? 'on' : 2); // 2 = FULL

    const inside = await withUnsyncedCommit(db, dialect, async (trx) => {
      await trx
        .insertInto('alerts')
        .values({
          message: 'kept',
          severity: 'info',
          title: null,
          created_at: 'now',
          cleared_at: null,
        })
        .execute();
      return durability(trx);
    });
    expect(inside).toBe(dialect === 'postgres' ? 'off' : 1); // 1 = NORMAL
    expect(await durability(db)).toBe(ordinary);

    await expect(
      withUnsyncedCommit(db, dialect, async (trx) => {
        await trx.updateTable('alerts').set({ message: 'lost' }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await durability(db)).toBe(ordinary);
    const rows = await db.selectFrom('alerts').select('message').execute();
    expect(rows).toEqual([{ message: 'kept' }]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations on PostgreSQL', () => {
  it("migrates its own schema when another schema already has Kysely's migration tables", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-db-'));
    const open = (pgSchema: string) =>
      openDatabase({ dataDir, databaseUrl: process.env.TEST_DATABASE_URL, pgSchema });
    const neighbour = `t_${randomBytes(6).toString('hex')}`;
    const ours = `t_${randomBytes(6).toString('hex')}`;
    const first = await open(neighbour); // another app (or a parallel test) of the same database
    try {
      const second = await open(ours);
      try {
        const tables = await sql<{ table_name: string }>`
          select table_name from information_schema.tables where table_schema = ${ours}`.execute(
          second.db,
        );
        expect(tables.rows.map((r) => r.table_name)).toEqual(
          expect.arrayContaining(['kysely_migration', 'kysely_migration_lock', 'users', 'files']),
        );
      } finally {
        await second.db.schema.dropSchema(ours).cascade().execute();
        await second.close();
      }
    } finally {
      await first.db.schema.dropSchema(neighbour).cascade().execute();
      await first.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('introspects its own schema only (another schema dropped meanwhile cannot fail a migration)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'inkwell-db-'));
    const neighbour = `t_${randomBytes(6).toString('hex')}`;
    const ours = `t_${randomBytes(6).toString('hex')}`;
    const open = (pgSchema: string) =>
      openDatabase({ dataDir, databaseUrl: process.env.TEST_DATABASE_URL, pgSchema });
    const first = await open(neighbour);
    const second = await open(ours);
    try {
      await sql`create table ${sql.id(neighbour, 'only_there')} (id int)`.execute(first.db);
      const tables = await second.db.introspection.getTables({ withInternalKyselyTables: true });
      expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours]));
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['kysely_migration', 'users', 'files']),
      );
      expect(tables.map((t) => t.name)).not.toContain('only_there');
    } finally {
      await second.db.schema.dropSchema(ours).cascade().execute();
      await first.db.schema.dropSchema(neighbour).cascade().execute();
      await second.close();
      await first.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
