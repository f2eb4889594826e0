import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/database';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { nowIso } from '../../lib/time';

/**
 * An upload in progress holds a row whose name starts with this prefix: its size is the bytes it
 * reserved against the quota. Real names never contain "/", so the two can never collide.
 */
export const PENDING_PREFIX = '.pending/';

const itemColumns = [
  'id',
  'file_name',
  'type',
  'size',
  'created_at',
  'user_id',
  'storage_key',
] as const;

/** True for the unique-constraint violation of SQLite and PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Data access for stored files, their quota reservations and their text cache. */
export const filesRepo = {
  /**
   * Reserves up to `wanted` bytes of the user's quota by inserting a pending row, atomically: on
   * PostgreSQL the user's row is locked so parallel uploads of one account queue here; on SQLite
   * the single connection already serialises transactions. Returns null when nothing is left.
   * The commit skips the fsync: a pending row lost in a power cut was never reported as saved,
   * and finalize's ordinary commit makes it durable along with the real name.
   */
  reserve: (
    db: Db,
    dialect: Dialect,
    r: {
      userId: number;
      type: string;
      storageKey: string;
      wanted: number;
      quota: number;
      /** Pending rows last refreshed before this are dead uploads: their bytes are free again. */
      deadBefore: string;
    },
  ) =>
    withUnsyncedCommit(db, dialect, async (trx) => {
      if (dialect === 'postgres') {
        await sql`select id from users where id = ${r.userId} for update`.execute(trx);
      }
      const { used } = await trx
        .selectFrom('files')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('used'))
        .where('user_id', '=', r.userId)
        .where((eb) =>
          eb.not(
            eb.and([
              eb('file_name', 'like', `${PENDING_PREFIX}%`),
              eb('created_at', '<', r.deadBefore),
            ]),
          ),
        )
        .executeTakeFirstOrThrow();
      const reserved = Math.min(r.wanted, r.quota - Number(used));
      if (reserved <= 0) return null;
      const row = await trx
        .insertInto('files')
        .values({
          user_id: r.userId,
          file_name: `${PENDING_PREFIX}${r.storageKey}`,
          type: r.type,
          size: reserved,
          storage_key: r.storageKey,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, reserved };
    }),

  /**
   * Turns a reservation into the real file (its name and true size); undefined when the
   * reservation is gone (swept as dead: its upload stalled past the lease).
   */
  finalize: (db: Db, id: number, fileName: string, size: number) =>
    db
      .updateTable('files')
      .set({ file_name: fileName, size, created_at: nowIso() })
      .where('id', '=', id)
      .where('file_name', 'like', `${PENDING_PREFIX}%`)
      .returning(itemColumns)
      .executeTakeFirst(),

  /** A running upload's sign of life (see upload-lease.ts); false when its reservation is gone. */
  touchReservation: async (db: Db, id: number) => {
    const r = await db
      .updateTable('files')
      .set({ created_at: nowIso() })
      .where('id', '=', id)
      .where('file_name', 'like', `${PENDING_PREFIX}%`)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  },

  /**
   * Deletes the reservations last refreshed before `before` and returns their storage keys.
   * One conditional statement: a reservation refreshed or finalized meanwhile is not touched.
   */
  deleteDeadReservations: (db: Db, before: string) =>
    db
      .deleteFrom('files')
      .where('file_name', 'like', `${PENDING_PREFIX}%`)
      .where('created_at', '<', before)
      .returning('storage_key')
      .execute(),

  names: async (db: Db, userId: number) =>
    new Set(
      (
        await db.selectFrom('files').select('file_name').where('user_id', '=', userId).execute()
      ).map((r) => r.file_name),
    ),

  list: (db: Db, userId: number) =>
    db
      .selectFrom('files')
      // Its place in the search index (features/documents/knowledge): no row yet is 'reading'.
      .leftJoin('search_files', 'search_files.file_id', 'files.id')
      .select(itemColumns.map((c) => `files.${c}` as const))
      .select(['search_files.state as search', 'search_files.error as search_error'])
      .where('files.user_id', '=', userId)
      .where('file_name', 'not like', `${PENDING_PREFIX}%`)
      .orderBy('files.created_at', 'desc')
      .orderBy('files.id', 'desc')
      .execute(),

  /** Any user's file by id (ownership is checked by the service, in one place). */
  findById: (db: Db, id: number) =>
    db
      .selectFrom('files')
      .select(itemColumns)
      .where('id', '=', id)
      .where('file_name', 'not like', `${PENDING_PREFIX}%`)
      .executeTakeFirst(),

  /** The renamed row; undefined when it is gone (deleted since it was read). */
  rename: (db: Db, id: number, fileName: string) =>
    db
      .updateTable('files')
      .set({ file_name: fileName })
      .where('id', '=', id)
      .returning(itemColumns)
      .executeTakeFirst(),

  deleteRow: (db: Db, id: number) => db.deleteFrom('files').where('id', '=', id).execute(),

  /** Deletes every finished file of a user; returns their storage keys. */
  deleteAllOf: (db: Db, userId: number) =>
    db
      .deleteFrom('files')
      .where('user_id', '=', userId)
      .where('file_name', 'not like', `${PENDING_PREFIX}%`)
      .returning(['id', 'storage_key'])
      .execute(),

  /** Every finished (not pending) row, for the consistency sweep. */
  finishedRows: (db: Db) =>
    db
      .selectFrom('files')
      .select(['id', 'storage_key'])
      .where('file_name', 'not like', `${PENDING_PREFIX}%`)
      .execute(),

  /** Which of these storage keys some row (pending or finished) holds now. */
  keysWithRows: async (db: Db, keys: string[]) =>
    new Set(
      keys.length === 0
        ? []
        : (
            await db
              .selectFrom('files')
              .select('storage_key')
              .where('storage_key', 'in', keys)
              .execute()
          ).map((r) => r.storage_key),
    ),

  /**
   * Deletes a row only if it still holds `storageKey`: SQLite may give a deleted row's id to a new
   * row, which a sweep working from an older snapshot must not remove.
   */
  deleteRowOf: (db: Db, id: number, storageKey: string) =>
    db.deleteFrom('files').where('id', '=', id).where('storage_key', '=', storageKey).execute(),

  /**
   * A file's cached text in one lookup: its length, and the text itself only when it has at most
   * `upTo` characters (no megabytes read); undefined when it has none.
   */
  cachedTextUpTo: async (db: Db, fileId: number, upTo: number) => {
    const row = await db
      .selectFrom('file_text_cache')
      .select(sql<number>`length(content)`.as('length'))
      .select(sql<string | null>`case when length(content) <= ${upTo} then content end`.as('small'))
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row && { length: Number(row.length), small: row.small };
  },

  getCachedText: async (db: Db, fileId: number) =>
    (
      await db
        .selectFrom('file_text_cache')
        .select('content')
        .where('file_id', '=', fileId)
        .executeTakeFirst()
    )?.content,

  /** A cache: a power cut that loses it costs one more read of the file, so no fsync is waited for. */
  putCachedText: (db: Db, dialect: Dialect, fileId: number, content: string) =>
    withUnsyncedCommit(db, dialect, (trx) =>
      trx
        .insertInto('file_text_cache')
        .values({ file_id: fileId, content, created_at: nowIso() })
        .onConflict((oc) => oc.column('file_id').doUpdateSet({ content, created_at: nowIso() }))
        .execute(),
    ),
};

export type FileRow = NonNullable<Awaited<ReturnType<typeof filesRepo.findById>>>;
