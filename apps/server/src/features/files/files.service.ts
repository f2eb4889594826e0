import type { Readable } from 'node:stream';
import {
  ACCOUNT_QUOTA_BYTES,
  type FileExtension,
  type FileItem,
  type FileSearchState,
  type MyFilesResponse,
  type PreviewResponse,
} from '@inkwell/contract';
import { sqliteFileOf, type Db, type Dialect } from '../../db/database';
import { conflict, badRequest, notFound } from '../../lib/http-error';
import { isOutOfSpace } from '../../lib/out-of-space';
import type { AuthUser } from '../../plugins/auth';
import { StorageNotFoundError, type Storage } from '../../storage/storage';
import { extractText, READER_VERSION, type ExtractResult, type ReaderLimits } from './reader';
import { docxLayout } from './docx-layout';
import { baseName } from './file-names';
import { filesRepo, isUniqueViolation, type FileRow } from './files.repo';
import { stopReadsOf, whileFileExists } from './file-reads';
import type { UploadLease } from './upload-lease';
import { cpuPool } from '../../workers/cpu-pool';
import { parseCachedText } from './cached-text-reader';
import type { FilesCpuTasks } from './files.cpu';
import { MAX_FILE_NAME_LENGTH } from '@inkwell/contract';

export interface FilesDeps {
  db: Db;
  dialect: Dialect;
  storage: Storage;
  /** Per-account quota; defaults to ACCOUNT_QUOTA_BYTES. */
  quotaBytes?: number;
  /** When an upload's reservation counts as dead; defaults to UPLOAD_LEASE (tests shorten it). */
  lease?: UploadLease;
  /** The time limit of a background read; defaults to BACKGROUND_READ_MS (tests shorten it). */
  backgroundReadMs?: number;
}

export const toItem = (row: FileRow): FileItem => ({
  id: row.id,
  file_name: row.file_name,
  type: row.type as FileExtension,
  size: Number(row.size),
  created_at: row.created_at,
});

/** The one authorization rule of this feature: a file is its owner's only. */
export const canReadFile = (user: Pick<AuthUser, 'id'>, file: Pick<FileRow, 'user_id'>) =>
  file.user_id === user.id;

/** A file of this user, or 404, exactly as for an id that does not exist (no existence leak). */
export async function findOwnedFile(
  deps: FilesDeps,
  userId: number,
  fileId: number,
): Promise<FileRow> {
  const file = await filesRepo.findById(deps.db, fileId);
  if (!file || !canReadFile({ id: userId }, file)) throw notFound('File not found');
  return file;
}

export async function listFiles(deps: FilesDeps, userId: number): Promise<MyFilesResponse> {
  const rows = await filesRepo.list(deps.db, userId);
  return {
    files: rows.map((r) => ({
      ...toItem(r),
      search: (r.search ?? 'reading') as FileSearchState,
      search_error: r.search === 'unreadable' ? r.search_error : null,
    })),
    used_bytes: rows.reduce((sum, r) => sum + Number(r.size), 0),
    quota_bytes: deps.quotaBytes ?? ACCOUNT_QUOTA_BYTES,
  };
}

async function openObject(deps: FilesDeps, file: FileRow): Promise<Readable> {
  try {
    return await deps.storage.get(file.storage_key);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw notFound('File not found');
    throw err;
  }
}

/** The original bytes of a file, streamed. */
export async function openDownload(deps: FilesDeps, userId: number, fileId: number) {
  const file = await findOwnedFile(deps, userId, fileId);
  return { file: toItem(file), stream: await openObject(deps, file) };
}

/**
 * The extracted text of a user's file, parsed once and then served from `file_text_cache`.
 * Throws 404 for a file that is not the user's and 400 'could not read this file: …' for a
 * document the reader refuses. This is the entry point for the AI actions.
 */
export async function getFileText(
  deps: FilesDeps,
  userId: number,
  fileId: number,
): Promise<ExtractResult> {
  const file = await findOwnedFile(deps, userId, fileId);
  // One read of a file at a time in this process: the search index's read (started by the
  // upload) and a person's preview asked meanwhile share it, instead of two readers of one PDF
  // taking both cores from each other.
  let inFlight = readsInFlight.get(deps.db);
  if (!inFlight) readsInFlight.set(deps.db, (inFlight = new Map()));
  let reading = inFlight.get(file.id);
  if (!reading) {
    const reads = inFlight;
    const read = readFileText(deps, file);
    reading = read.then((r) => r.result);
    inFlight.set(file.id, reading);
    // Kept in flight until its text is cached too: a read asked meanwhile shares this one.
    void read
      .then(
        (r) => r.cached,
        () => undefined,
      )
      .finally(() => reads.delete(file.id));
  }
  const result = await reading;
  if (!result.timedOut) return result;
  // A shared read cut short by its time limit: the background read (rereadInBackground) may have
  // cached the whole text meanwhile, and that is the answer then.
  return (await currentCachedText(deps, file.id)) ?? result;
}

/** The texts being read now, by database (a process may hold several apps) and file id. */
const readsInFlight = new WeakMap<object, Map<number, Promise<ExtractResult>>>();

/**
 * A file's text, from the cache or read; `cached` settles once a text just read is in the cache:
 * the person waiting for it is answered first (writing megabytes of text to the database took
 * tens of milliseconds of the first preview).
 */
async function readFileText(
  deps: FilesDeps,
  file: FileRow,
): Promise<{ result: ExtractResult; cached?: Promise<void> }> {
  const cached = await currentCachedText(deps, file.id);
  if (cached) return { result: cached };
  const result = await readStored(deps, file);
  if (result.timedOut) {
    // Cut short by the time limit (a scan read under load): answered as it is, never cached;
    // read again in the background with more time, and that text is cached (issue 26).
    rereadInBackground(deps, file);
    return { result };
  }
  // The cache is an extra: a failed write (the database down a moment) costs a read next time.
  return { result, cached: cacheText(deps, file.id, result).catch(() => undefined) };
}

/** The reader on a stored file's bytes, stopped if the file is deleted meanwhile (file-reads.ts). */
function readStored(deps: FilesDeps, file: FileRow, limits?: Partial<ReaderLimits>) {
  return whileFileExists(deps.db, file.id, async (signal) =>
    extractText(
      { type: file.type as FileExtension, stream: await openObject(deps, file), signal },
      limits,
    ),
  );
}

/**
 * A file's cached text when the current reader wrote it: text cached by an older reader
 * (garbled code pages, [object Object] cells) is read again.
 */
async function currentCachedText(
  deps: FilesDeps,
  fileId: number,
): Promise<ExtractResult | undefined> {
  const cached = await readCachedText(deps, fileId);
  if (!cached || cached.reader !== READER_VERSION) return undefined;
  const { reader: _, ...result } = cached;
  return result;
}

/**
 * A file's cached text, read and parsed in the CPU pool: megabytes of JSON read (better-sqlite3
 * is synchronous) or parsed on the event loop would hold up every other request. With SQLite the
 * worker reads the row itself; PostgreSQL's row arrives asynchronously and is parsed there.
 */
async function readCachedText(deps: FilesDeps, fileId: number) {
  // A small text is parsed at once, and a file read for the first time (every upload, when the
  // search index reads it) has none: neither waits for a worker (a busy one, or one still loading
  // its modules, held a first preview for 8-13 s under the test suite's load).
  const dbFile = sqliteFileOf(deps.db);
  if (dbFile) {
    const cached = await filesRepo.cachedTextUpTo(deps.db, fileId, SMALL_CACHED_TEXT);
    if (!cached) return undefined;
    if (cached.small !== null) return parseCachedText(cached.small);
    return cpuPool<FilesCpuTasks>().run('readCachedText', { dbFile, fileId });
  }
  const cached = await filesRepo.getCachedText(deps.db, fileId);
  if (cached === undefined) return undefined;
  if (cached.length <= SMALL_CACHED_TEXT) return parseCachedText(cached);
  return cpuPool<FilesCpuTasks>().run('parseCachedText', cached);
}

/** Cached texts up to this many characters are read and parsed on the event loop (well under 1 ms). */
const SMALL_CACHED_TEXT = 64 * 1024;

/** The time limit of a background read of a document cut short by the reader's own limit. */
export const BACKGROUND_READ_MS = 10 * 60_000;
/** Files this process is reading again, per database (a test process holds several apps). */
const rereading = new WeakMap<Db, Set<number>>();

/**
 * Whether this process is reading a file again in the background (its read was cut short): the
 * search index waits for that text instead of reading the file itself meanwhile.
 */
export const isReadAgainInBackground = (db: Db, fileId: number): boolean =>
  rereading.get(db)?.has(fileId) === true;

function rereadInBackground(deps: FilesDeps, file: FileRow) {
  let files = rereading.get(deps.db);
  if (!files) rereading.set(deps.db, (files = new Set()));
  if (files.has(file.id)) return;
  const reads = files;
  reads.add(file.id);
  void (async () => {
    try {
      const timeLimitMs = deps.backgroundReadMs ?? BACKGROUND_READ_MS;
      const result = await readStored(deps, file, { timeLimitMs });
      // Cut short even so, what it read is the file's text (marked truncated): another read
      // would take as long and end the same, again and again; a newer reader reads it anew.
      await cacheText(deps, file.id, result.timedOut ? { ...result, truncated: true } : result);
    } catch {
      // The next read tries again.
    } finally {
      reads.delete(file.id);
    }
  })();
}

/** The cache is an extra: with no room for it (a full disk) the text is answered uncached. */
async function cacheText(deps: FilesDeps, fileId: number, result: ExtractResult) {
  const { timedOut: _, ...final } = result;
  const content = JSON.stringify({ ...final, reader: READER_VERSION });
  await filesRepo.putCachedText(deps.db, deps.dialect, fileId, content).catch((err: unknown) => {
    if (!isOutOfSpace(err)) throw err;
  });
}

export type PreviewOutcome =
  { kind: 'pdf'; file: FileItem; stream: Readable } | { kind: 'json'; body: PreviewResponse };

/** pdf → its bytes (or its pages' text when `asText`); everything else → the contract's JSON forms. */
export async function previewFile(
  deps: FilesDeps,
  userId: number,
  fileId: number,
  asText = false,
  signal?: AbortSignal,
): Promise<PreviewOutcome> {
  const file = await findOwnedFile(deps, userId, fileId);
  if (file.type === 'pdf' && !asText)
    return { kind: 'pdf', file: toItem(file), stream: await openObject(deps, file) };
  const r = await getFileText(deps, userId, fileId);
  const { text, truncated } = r;
  switch (file.type) {
    case 'txt':
      return { kind: 'json', body: { kind: 'text', type: file.type, text, truncated } };
    case 'docx': {
      const open = () => openObject(deps, file);
      const blocks = await docxLayout({ size: file.size, truncated, open, signal });
      return { kind: 'json', body: { kind: 'text', type: 'docx', text, truncated, blocks } };
    }
    case 'csv':
    case 'xlsx': {
      const sheets = r.units.map((u) => ({ name: u.label, rows: u.rows ?? [] }));
      return { kind: 'json', body: { kind: 'table', type: file.type, text, sheets, truncated } };
    }
    case 'pdf': {
      const pages = r.units.map((u) => ({ label: u.label, text: u.text, ocr: u.ocr === true }));
      return { kind: 'json', body: { kind: 'pages', type: 'pdf', text, pages, truncated } };
    }
    case 'pptx': {
      const slides = r.units.map((u) => ({ label: u.label, text: u.text }));
      return { kind: 'json', body: { kind: 'slides', type: 'pptx', text, slides, truncated } };
    }
    default:
      throw badRequest('Unsupported file type');
  }
}

/** Renames keeping the extension; the schema already refused empty/separators/control chars. */
export async function renameFile(deps: FilesDeps, userId: number, fileId: number, newName: string) {
  const file = await findOwnedFile(deps, userId, fileId);
  const type = file.type as FileExtension;
  const name = `${baseName(newName.trim(), type).trim()}.${type}`;
  if (name === `.${type}`) throw badRequest('The new name must not be empty');
  if (name.length > MAX_FILE_NAME_LENGTH) {
    throw badRequest(`The name must be at most ${MAX_FILE_NAME_LENGTH} characters`);
  }
  if (name === file.file_name) return { message: 'File renamed', file: toItem(file) };
  try {
    const renamed = await filesRepo.rename(deps.db, file.id, name);
    // Deleted between its read above and this write: gone, as for any other missing file.
    if (!renamed) throw notFound('File not found');
    return { message: 'File renamed', file: toItem(renamed) };
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('A file with this name already exists');
    throw err;
  }
}

/** Row first, then the object: a failure in between leaves only an orphan object, swept later. */
export async function deleteFile(deps: FilesDeps, userId: number, fileId: number) {
  const file = await findOwnedFile(deps, userId, fileId);
  await filesRepo.deleteRow(deps.db, file.id);
  stopReadsOf(deps.db, [file.id]);
  await deps.storage.delete(file.storage_key);
  return { message: 'File deleted', deleted: 1 };
}

export async function deleteAllFiles(deps: FilesDeps, userId: number) {
  const rows = await filesRepo.deleteAllOf(deps.db, userId);
  stopReadsOf(
    deps.db,
    rows.map((r) => r.id),
  );
  for (const { storage_key } of rows) await deps.storage.delete(storage_key);
  return { message: 'All files deleted', deleted: rows.length };
}
