import type { Db, Dialect } from '../../../db/database';
import { withUnsyncedCommit } from '../../../db/unsynced-commit';

/**
 * The claims on files being indexed (migration 044; file-claims.ts holds them), and the checks
 * that a claimed file still needs the work: another app server may have done it since the file
 * was queued here. Claims commit without waiting for the disk (db/unsynced-commit.ts): one lost
 * in a power cut costs at most a file indexed twice, or a minute's wait for it. A claim and its
 * release cost about 1.5 ms a file on PostgreSQL (waiting for the disk, 1.4 to 9 ms).
 */

/** The work claimed: a file's terms (indexer.ts) or its vectors (vector-indexer.ts). */
export type ClaimKind = 'terms' | 'vectors';

/** The file was deleted: nothing to claim (its claims went with it by cascade). */
const isMissingFile = (err: unknown) => {
  const code = (err as { code?: string })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
};

export const searchClaimsRepo = {
  /**
   * Claims the file's work for `holder` until `now` + `leaseMs`, in one statement (so two
   * servers asking at once cannot both win): taken when free, expired or already the holder's
   * (a renewal). False when another holder's claim is live, or the file is gone.
   */
  async claim(
    db: Db,
    dialect: Dialect,
    c: { fileId: number; kind: ClaimKind; holder: string; now: Date; leaseMs: number },
  ): Promise<boolean> {
    const expiresAt = new Date(c.now.getTime() + c.leaseMs).toISOString();
    try {
      const row = await withUnsyncedCommit(db, dialect, (trx) =>
        trx
          .insertInto('search_claims')
          .values({ file_id: c.fileId, kind: c.kind, holder: c.holder, expires_at: expiresAt })
          .onConflict((oc) =>
            oc
              .columns(['file_id', 'kind'])
              .doUpdateSet((eb) => ({
                holder: eb.ref('excluded.holder'),
                expires_at: eb.ref('excluded.expires_at'),
              }))
              .where((eb) =>
                eb.or([
                  eb('search_claims.expires_at', '<', c.now.toISOString()),
                  eb('search_claims.holder', '=', eb.ref('excluded.holder')),
                ]),
              ),
          )
          .returning('file_id')
          .executeTakeFirst(),
      );
      return row !== undefined;
    } catch (err) {
      if (isMissingFile(err)) return false;
      throw err;
    }
  },

  /** Ends the holder's claim (a claim another holder took after it expired stays theirs). */
  release: (db: Db, dialect: Dialect, fileId: number, kind: ClaimKind, holder: string) =>
    withUnsyncedCommit(db, dialect, (trx) =>
      trx
        .deleteFrom('search_claims')
        .where('file_id', '=', fileId)
        .where('kind', '=', kind)
        .where('holder', '=', holder)
        .execute(),
    ),

  /** Whether the file still waits for its terms: never indexed, or by an older INDEX_VERSION. */
  async needsTerms(db: Db, fileId: number, reader: number): Promise<boolean> {
    const row = await db
      .selectFrom('search_files')
      .select('reader')
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return !row || row.reader < reader;
  },

  /** Whether the file's passages of `stamp` still wait for vectors of this model. */
  async needsVectors(db: Db, fileId: number, stamp: string, model: string): Promise<boolean> {
    const row = await db
      .selectFrom('search_files')
      .select(['state', 'updated_at', 'vector_model'])
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row?.state === 'searchable' && row.updated_at === stamp && row.vector_model !== model;
  },
};
