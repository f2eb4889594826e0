import { sql, type RawBuilder } from 'kysely';
import type { FileSearchState } from '@inkwell/contract';
import { sqliteFileOf, type Db, type Dialect } from '../../../db/database';
import { withUnsyncedCommit } from '../../../db/unsynced-commit';
import { readStoredRows } from '../retrieval/passage-pool';
import { PENDING_PREFIX } from '../../files';
import type { IndexRows } from './passages';
import { unpack, type Stored } from './packed-text';

/**
 * The search index's rows (migration 040). Every query of passages names the user: on SQLite
 * the FTS5 match itself carries the owner's token (`owner:u<id>`), on PostgreSQL the scan is
 * `user_id = $1`, so another account's passages are never ranked, not merely dropped afterwards.
 */
const KEY = 1048576; // 2^20: an FTS5 row is file_id × 2^20 + ord
/** Written into the SQL: a bound JS number is a REAL to SQLite, and the division would not cut. */
const KEY_SQL = sql.raw(String(KEY));
const BATCH = 200;

export interface Hit {
  file_id: number;
  ord: number;
  score: number;
  language: string;
  ref: string;
  char_start: number;
  char_end: number;
  text: string;
  file_name: string;
}

/** A passage's place: its file and its number in the file. */
export interface Place {
  file_id: number;
  ord: number;
}

/** Places grouped by file, for one `file_id = ? and ord in (...)` per file. */
export function ordsByFile(places: Place[]): Map<number, number[]> {
  const byFile = new Map<number, number[]>();
  for (const p of places) {
    const ords = byFile.get(p.file_id);
    if (ords) ords.push(p.ord);
    else byFile.set(p.file_id, [p.ord]);
  }
  return byFile;
}

const now = () => new Date().toISOString();

type Packed<T> = Omit<T, 'text'> & Stored;
/** The columns that find a passage's text in its block. */
export const TEXT_COLUMNS = [
  'search_passages.block',
  'search_passages.block_at',
  'search_passages.block_size',
  'search_blocks.packed',
] as const;
const ownerToken = (userId: number) => `u${userId}`;
const inList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`));

/** A tsvector literal with positions (tf = their number), built without any text parser. */
function tsvector(joined: string): string {
  const at = new Map<string, number[]>();
  if (!joined) return '';
  joined.split(' ').forEach((t, i) => {
    const list = at.get(t) ?? [];
    if (list.length < 256) list.push(Math.min(i + 1, 16383));
    at.set(t, list);
  });
  return [...at].map(([t, p]) => `'${t}':${p.join(',')}`).join(' ');
}

async function setState(
  db: Db,
  fileId: number,
  userId: number,
  state: FileSearchState,
  extra: {
    error?: string | null;
    language?: string;
    passages?: number;
    chars?: number;
    reader?: number;
  } = {},
) {
  // Any new state of a file outdates its passages' vectors (vector-indexer.ts computes them again).
  const row = {
    state,
    error: extra.error ?? null,
    updated_at: now(),
    vector_model: null,
    centroid: null,
    ...extra,
  };
  await db
    .insertInto('search_files')
    .values({ file_id: fileId, user_id: userId, ...row })
    .onConflict((oc) => oc.column('file_id').doUpdateSet(row))
    .execute();
}

/** Files whose passages have vectors of this embeddings model. */
async function withVectors(db: Db, model: string): Promise<number> {
  const row = await db
    .selectFrom('search_files')
    .select(sql<number>`count(*)`.as('n'))
    .where('vector_model', '=', model)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function removeRows(trx: Db, fileId: number) {
  await trx.deleteFrom('search_passages').where('file_id', '=', fileId).execute();
  await trx.deleteFrom('search_blocks').where('file_id', '=', fileId).execute();
  await trx.deleteFrom('search_vectors').where('file_id', '=', fileId).execute();
}

export const knowledgeRepo = {
  // The index's writes commit without waiting for the disk (db/unsynced-commit.ts): it is built
  // from the files, and a file whose last index a power cut rolled back is pending again, so the
  // sweep indexes it again. An fsync is about a millisecond a commit, two a file.
  async markReading(db: Db, dialect: Dialect, fileId: number, userId: number) {
    // A new file has no row yet, which reads as 'reading' everywhere (and as pending to the
    // sweep): no transaction for it, a millisecond of every upload's index.
    const row = await db
      .selectFrom('search_files')
      .select('state')
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    if (!row) return;
    await withUnsyncedCommit(db, dialect, (trx) =>
      setState(trx, fileId, userId, 'reading', { reader: 0 }),
    );
  },

  markUnreadable: (
    db: Db,
    dialect: Dialect,
    fileId: number,
    userId: number,
    error: string,
    reader: number,
  ) =>
    withUnsyncedCommit(db, dialect, async (trx) => {
      await removeRows(trx, fileId);
      await setState(trx, fileId, userId, 'unreadable', { error, reader });
    }),

  /** A file's passages, replaced in one transaction; it is searchable once this commits. */
  replace: (
    db: Db,
    dialect: Dialect,
    fileId: number,
    userId: number,
    f: IndexRows,
    reader: number,
  ) =>
    withUnsyncedCommit(db, dialect, async (trx) => {
      await removeRows(trx, fileId);
      for (let i = 0; i < f.blocks.length; i += BATCH) {
        const rows = f.blocks.slice(i, i + BATCH).map((b, j) => ({
          file_id: fileId,
          block: i + j,
          packed: Buffer.from(b.buffer, b.byteOffset, b.byteLength),
        }));
        await trx.insertInto('search_blocks').values(rows).execute();
      }
      for (let i = 0; i < f.passages.length; i += BATCH) {
        const batch = f.passages.slice(i, i + BATCH);
        const rows = batch.map((p) => ({
          file_id: fileId,
          ord: p.ord,
          user_id: userId,
          language: f.language,
          ref: p.ref,
          char_start: p.start,
          char_end: p.end,
          length: p.length,
          block: p.block,
          block_at: p.at,
          block_size: p.size,
          ...(dialect === 'postgres' ? { terms: sql`${tsvector(p.terms)}::tsvector` } : {}),
        }));
        await trx.insertInto('search_passages').values(rows).execute();
        if (dialect === 'sqlite') {
          const values = batch.map(
            (p) => sql`(${fileId * KEY + p.ord}, ${ownerToken(userId)}, ${p.terms})`,
          );
          await sql`insert into search_fts(rowid, owner, terms) values ${sql.join(values)}`.execute(
            trx,
          );
        }
      }
      await setState(trx, fileId, userId, 'searchable', {
        language: f.language,
        passages: f.passages.length,
        chars: f.chars,
        reader,
      });
    }),

  /** Files with no place in the index yet, or indexed by an older version (INDEX_VERSION). */
  pending: (db: Db, reader: number, limit: number) =>
    db
      .selectFrom('files')
      .leftJoin('search_files', 'search_files.file_id', 'files.id')
      .select(['files.id', 'files.user_id'])
      .where('files.file_name', 'not like', `${PENDING_PREFIX}%`)
      .where((eb) =>
        eb.or([eb('search_files.file_id', 'is', null), eb('search_files.reader', '<', reader)]),
      )
      .orderBy('files.id')
      .limit(limit)
      .execute(),

  /** How far the index is, for the Admin page. */
  async progress(db: Db, vectorModel?: string) {
    const rows = await db
      .selectFrom('files')
      .leftJoin('search_files', 'search_files.file_id', 'files.id')
      .select(['search_files.state', sql<number>`count(*)`.as('n')])
      .where('files.file_name', 'not like', `${PENDING_PREFIX}%`)
      .groupBy('search_files.state')
      .execute();
    const by = (s: string | null) => Number(rows.find((r) => r.state === s)?.n ?? 0);
    const files = rows.reduce((n, r) => n + Number(r.n), 0);
    return {
      files,
      searchable: by('searchable'),
      unreadable: by('unreadable'),
      reading: files - by('searchable') - by('unreadable'),
      ...(vectorModel ? { with_vectors: await withVectors(db, vectorModel) } : {}),
    };
  },

  /** The states of the asked files (all the user's when `fileIds` is undefined). */
  states: (db: Db, userId: number, fileIds?: number[]) =>
    // None asked, none answered: `in ()` is a syntax error on PostgreSQL.
    fileIds?.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('files')
          .leftJoin('search_files', 'search_files.file_id', 'files.id')
          .select(['files.id', 'search_files.state', 'search_files.language'])
          .where('files.user_id', '=', userId)
          .where('files.file_name', 'not like', `${PENDING_PREFIX}%`)
          .$if(fileIds !== undefined, (q) => q.where('files.id', 'in', fileIds!))
          .execute(),

  /** The best `limit` passages of the user's (asked) files for these terms, best first. */
  async search(
    db: Db,
    dialect: Dialect,
    q: { userId: number; terms: string[]; fileIds?: number[]; limit: number },
  ): Promise<Hit[]> {
    if (q.terms.length === 0 || q.fileIds?.length === 0) return []; // no `in ()` (see states)
    const ranked = dialect === 'postgres' ? postgresRanking(q) : sqliteRanking(q);
    const query = sql<Packed<Hit>>`
      select p.file_id, p.ord, m.score, p.language, p.ref, p.char_start, p.char_end, p.block,
             p.block_at, p.block_size, b.packed, f.file_name
      from (${ranked}) m
      join search_passages p on p.file_id = m.file_id and p.ord = m.ord
      join search_blocks b on b.file_id = p.file_id and b.block = p.block
      join files f on f.id = p.file_id
      where p.user_id = ${q.userId}
      order by m.score desc, p.file_id, p.ord`;
    // SQLite reads synchronously: the ranking runs in a passage worker, off the event loop.
    const dbFile = sqliteFileOf(db);
    const hits = dbFile
      ? await readStoredRows<Hit>(dbFile, query.compile(db))
      : unpack((await query.execute(db)).rows);
    return hits.map((r) => ({ ...r, score: Number(r.score) }));
  },

  /** A file's place in the index, when it is the user's. */
  fileState: (db: Db, userId: number, fileId: number) =>
    db
      .selectFrom('search_files')
      .select(['state', 'language', 'reader', 'vector_model'])
      .where('file_id', '=', fileId)
      .where('user_id', '=', userId)
      .executeTakeFirst(),

  /** A file's first `limit` passages in order, with no score (MAX_PASSAGES: all of them). */
  first: async (db: Db, userId: number, fileId: number, limit: number): Promise<Hit[]> => {
    const rows = await db
      .selectFrom('search_passages')
      .innerJoin('files', 'files.id', 'search_passages.file_id')
      .innerJoin('search_blocks', (j) =>
        j
          .onRef('search_blocks.file_id', '=', 'search_passages.file_id')
          .onRef('search_blocks.block', '=', 'search_passages.block'),
      )
      .select(['search_passages.file_id', 'ord', 'language', 'ref', 'char_start', 'char_end'])
      .select([...TEXT_COLUMNS, 'files.file_name'])
      .where('search_passages.user_id', '=', userId)
      .where('search_passages.file_id', '=', fileId)
      .orderBy('ord')
      .limit(limit)
      .execute();
    return unpack(rows).map((r) => ({ ...r, score: 0 }));
  },

  /** The passages on either side of each of these (of the user's files only). */
  neighboursOf: (db: Db, userId: number, places: { file_id: number; ord: number }[]) =>
    knowledgeRepo.passagesAt(
      db,
      userId,
      places.flatMap((p) => [
        { file_id: p.file_id, ord: p.ord - 1 },
        { file_id: p.file_id, ord: p.ord + 1 },
      ]),
    ),

  /** The passages at these places, of the user's files only, with no score. */
  passagesAt: async (db: Db, userId: number, places: Place[]): Promise<Omit<Hit, 'score'>[]> => {
    if (places.length === 0) return [];
    const byFile = ordsByFile(places);
    return unpack(
      await db
        .selectFrom('search_passages')
        .innerJoin('files', 'files.id', 'search_passages.file_id')
        .innerJoin('search_blocks', (j) =>
          j
            .onRef('search_blocks.file_id', '=', 'search_passages.file_id')
            .onRef('search_blocks.block', '=', 'search_passages.block'),
        )
        .select([
          'search_passages.file_id',
          'ord',
          'language',
          'ref',
          'char_start',
          'char_end',
          ...TEXT_COLUMNS,
          'files.file_name',
        ])
        .where('search_passages.user_id', '=', userId)
        .where((eb) =>
          eb.or(
            [...byFile].map(([fileId, ords]) =>
              eb.and([eb('search_passages.file_id', '=', fileId), eb('ord', 'in', ords)]),
            ),
          ),
        )
        .execute(),
    );
  },
};

/** FTS5's own BM25 (k1 = 1.2, b = 0.75) over the terms column, the owner in the match. */
function sqliteRanking(q: { userId: number; terms: string[]; fileIds?: number[]; limit: number }) {
  const match = `owner : ${ownerToken(q.userId)} AND terms : (${q.terms.map((t) => `"${t}"`).join(' OR ')})`;
  const only = q.fileIds ? sql`and (rowid / ${KEY_SQL}) in (${inList(q.fileIds)})` : sql``;
  return sql`select rowid / ${KEY_SQL} as file_id, rowid % ${KEY_SQL} as ord,
      -bm25(search_fts, 0.0, 1.0) as score
    from search_fts where search_fts match ${match} ${only}
    order by score desc limit ${q.limit}`;
}

/** Okapi BM25 (k1 = 1.2, b = 0.75) computed in SQL over the user's own passages only. */
function postgresRanking(q: {
  userId: number;
  terms: string[];
  fileIds?: number[];
  limit: number;
}): RawBuilder<unknown> {
  const query = q.terms.map((t) => `'${t}'`).join(' | ');
  const only = q.fileIds ? sql`and file_id in (${inList(q.fileIds)})` : sql``;
  return sql`
    with cand as (
      select file_id, ord, length, terms from search_passages
      where user_id = ${q.userId} and terms @@ ${query}::tsquery ${only}),
    hits as (
      select c.file_id, c.ord, c.length, t.lexeme, coalesce(array_length(t.positions, 1), 1) as tf
      from cand c, unnest(c.terms) t where t.lexeme = any(${q.terms}::text[])),
    df as (select lexeme, count(*) as n from hits group by lexeme),
    stats as (
      select count(*)::float8 as n, greatest(avg(length), 1)::float8 as avgdl
      from search_passages where user_id = ${q.userId} ${only})
    select h.file_id, h.ord,
      sum(ln(1 + (s.n - d.n + 0.5) / (d.n + 0.5)) * h.tf * 2.2
          / (h.tf + 1.2 * (0.25 + 0.75 * h.length / s.avgdl))) as score
    from hits h join df d on d.lexeme = h.lexeme cross join stats s
    group by h.file_id, h.ord order by score desc limit ${q.limit}`;
}
