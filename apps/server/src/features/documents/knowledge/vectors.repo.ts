import type { Db } from '../../../db/database';
import { ordsByFile, type Place } from './knowledge.repo';

/**
 * The rows of the passages' vectors (migration 042; vector-indexer.ts writes them, and
 * ask-files.service.ts reads them). Like every query of the index, each names the user.
 */
const BATCH = 500;

/** Whether a file's passages are still those of `stamp`: not deleted, not indexed again. */
async function isCurrent(db: Db, fileId: number, stamp: string): Promise<boolean> {
  const row = await db
    .selectFrom('search_files')
    .select(['updated_at', 'state'])
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return row?.state === 'searchable' && row.updated_at === stamp;
}

export const vectorsRepo = {
  /** Searchable files whose vectors are missing or from another model, oldest first. */
  pending: (db: Db, model: string, limit: number) =>
    db
      .selectFrom('search_files')
      .select(['file_id', 'user_id', 'updated_at'])
      .where('state', '=', 'searchable')
      .where('passages', '>', 0)
      .where((eb) => eb.or([eb('vector_model', 'is', null), eb('vector_model', '<>', model)]))
      .orderBy('file_id')
      .limit(limit)
      .execute(),

  current: isCurrent,

  /**
   * A file's vectors, stored only if its passages are still those they were computed from (the
   * file's index row unchanged since `stamp`): false when the file was indexed again or deleted.
   */
  store: (
    db: Db,
    f: {
      fileId: number;
      userId: number;
      model: string;
      stamp: string;
      vectors: { ord: number; vector: Buffer }[];
      centroid: Buffer;
    },
  ) =>
    db.transaction().execute(async (trx) => {
      if (!(await isCurrent(trx, f.fileId, f.stamp))) return false;
      await trx.deleteFrom('search_vectors').where('file_id', '=', f.fileId).execute();
      for (let i = 0; i < f.vectors.length; i += BATCH) {
        const rows = f.vectors.slice(i, i + BATCH).map((v) => ({
          file_id: f.fileId,
          ord: v.ord,
          user_id: f.userId,
          vector: v.vector,
        }));
        await trx.insertInto('search_vectors').values(rows).execute();
      }
      await trx
        .updateTable('search_files')
        .set({ vector_model: f.model, centroid: f.centroid })
        .where('file_id', '=', f.fileId)
        .execute();
      return true;
    }),

  /** The mean vectors of the user's (asked) searchable files with vectors of this model. */
  centroids: (db: Db, userId: number, model: string, fileIds?: number[]) =>
    db
      .selectFrom('search_files')
      .select(['file_id', 'passages', 'centroid'])
      .where('user_id', '=', userId)
      .where('state', '=', 'searchable')
      .where('vector_model', '=', model)
      .$if(fileIds !== undefined, (q) => q.where('file_id', 'in', fileIds!))
      .execute(),

  /** Every passage vector of these files of the user. */
  ofFiles: (db: Db, userId: number, fileIds: number[]) =>
    fileIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('search_vectors')
          .select(['file_id', 'ord', 'vector'])
          .where('user_id', '=', userId)
          .where('file_id', 'in', fileIds)
          .execute(),

  /** The vectors at these places, of the user's files only. */
  at: (db: Db, userId: number, places: Place[]) =>
    places.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('search_vectors')
          .select(['file_id', 'ord', 'vector'])
          .where('user_id', '=', userId)
          .where((eb) =>
            eb.or(
              [...ordsByFile(places)].map(([fileId, ords]) =>
                eb.and([eb('file_id', '=', fileId), eb('ord', 'in', ords)]),
              ),
            ),
          )
          .execute(),
};
