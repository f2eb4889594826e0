import { mkdtempSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readStored } from './stored-reads';

/** A database file with one stored passage: `text` deflated in block 0. */
function databaseWith(file: string, text: string) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.exec(
    'create table b (file_id integer, block integer, block_at integer, block_size integer, packed blob)',
  );
  const bytes = Buffer.from(text);
  db.prepare('insert into b values (7, 0, 0, ?, ?)').run(bytes.length, deflateRawSync(bytes));
  db.close();
}

const query = {
  sql: 'select file_id, block, block_at, block_size, packed from b where file_id = ?',
  parameters: [7],
};

describe("the search index's reads off the event loop", () => {
  it('answers rows with their texts unpacked, and sees a database replaced at the same path', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'stored-reads-'));
    const file = path.join(dir, 'inkwell.db');
    databaseWith(file, 'The harbour opened in spring.');
    expect(readStored(file, query)).toEqual([
      { file_id: 7, text: 'The harbour opened in spring.' },
    ]);
    // A restore puts another database where this one was: its rows, not the old handle's.
    databaseWith(path.join(dir, 'restored.db'), 'The lighthouse was restored.');
    renameSync(path.join(dir, 'restored.db'), file);
    expect(readStored(file, query)).toEqual([{ file_id: 7, text: 'The lighthouse was restored.' }]);
  });
});
