import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../migrate';

describe('migration 041 (search index blocks)', () => {
  it('empties the index of 040, so the sweep indexes every file again, and stores blocks', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrateToLatest(db, 'sqlite', '040-search-index');
    const at = new Date().toISOString();
    await sql`insert into users (id, email, password_hash, created_at)
      values (1, 'a@example.com', 'x', ${at})`.execute(db);
    await sql`insert into files (id, user_id, file_name, type, size, storage_key, created_at)
      values (7, 1, 'a.txt', 'txt', 3, 'k7', ${at})`.execute(db);
    await sql`insert into search_files (file_id, user_id, state, updated_at)
      values (7, 1, 'searchable', ${at})`.execute(db);
    await sql`insert into search_passages
      (file_id, ord, user_id, language, ref, char_start, char_end, length, packed)
      values (7, 0, 1, 'en', 'Text', 0, 3, 1, x'00')`.execute(db);
    await sql`insert into search_fts (rowid, owner, terms) values (${7 * 1048576}, 'u1', 'abc')`.execute(
      db,
    );

    await migrateToLatest(db, 'sqlite', '041-search-blocks');
    const count = async (table: string) =>
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!
        .n;
    expect(await count('search_files')).toBe(0);
    expect(await count('search_passages')).toBe(0);
    const fts = await sql<{ n: number }>`
      select count(*) as n from search_fts where search_fts match 'owner : u1'`.execute(db);
    expect(fts.rows[0]!.n).toBe(0);
    // The new shape: a passage's place in its block, the block deleted with its file.
    await sql`insert into search_blocks (file_id, block, packed) values (7, 0, x'00')`.execute(db);
    await sql`insert into search_passages
      (file_id, ord, user_id, language, ref, char_start, char_end, length, block, block_at,
       block_size) values (7, 0, 1, 'en', 'Text', 0, 3, 1, 0, 0, 3)`.execute(db);
    await sql`delete from files where id = 7`.execute(db);
    expect(await count('search_blocks')).toBe(0);
    await db.destroy();
  });
});
