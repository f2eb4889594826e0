import { sql } from 'kysely';
import type { Db, Dialect } from '../../../db/database';
import { withUnsyncedCommit } from '../../../db/unsynced-commit';

/** Pages one idle merge step writes: a few milliseconds of the event loop. */
const MERGE_PAGES = 64;

/**
 * One step of merging SQLite's index segments (FTS5's 'merge' of up to MERGE_PAGES pages, where
 * a level holds 4 or more): while files are indexed they are merged only at 16 (migration 043),
 * and the indexer merges the rest a step at a time when idle. True while there was work; the
 * index is rebuilt from the files, so its commit need not wait for the disk.
 */
export function mergeIndexStep(db: Db, dialect: Dialect): Promise<boolean> {
  if (dialect !== 'sqlite') return Promise.resolve(false);
  return withUnsyncedCommit(db, dialect, async (trx) => {
    const changes = async () =>
      Number((await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0]!.n);
    const before = await changes();
    await sql`insert into search_fts(search_fts, rank) values ('merge', ${MERGE_PAGES})`.execute(
      trx,
    );
    // FTS5: fewer than two changes means the merge found nothing to do.
    return (await changes()) - before >= 2;
  });
}
