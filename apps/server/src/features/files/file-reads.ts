import type { Db } from '../../db/database';
import { notFound } from '../../lib/http-error';
import { filesRepo } from './files.repo';

/**
 * The reads of stored files under way in this process, each stopped once its file is deleted:
 * at once by a delete in this process, and within READ_CHECK_MS by one elsewhere (another app
 * server, an account's deletion), found by looking for the row. A deleted file's read went on to
 * its end before: a reader's worker, poppler or OCR busy for minutes on a scan nobody could ask
 * about any more, while the search index, which reads one file at a time for everyone, waited.
 */
export const READ_CHECK_MS = 5_000;

/** Per database (a test runs several servers in one process): file id → its reads' stops. */
const underWay = new WeakMap<Db, Map<number, Set<AbortController>>>();

const gone = () => notFound('File not found');

/**
 * Runs `read` with a signal that stops it when the file is deleted; it then rejects with 404
 * 'File not found', as a read of a deleted file does.
 */
export async function whileFileExists<T>(
  db: Db,
  fileId: number,
  read: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  let byFile = underWay.get(db);
  if (!byFile) underWay.set(db, (byFile = new Map()));
  const stops = byFile.get(fileId) ?? new Set<AbortController>();
  byFile.set(fileId, stops);
  const stop = new AbortController();
  stops.add(stop);
  const check = setInterval(() => {
    filesRepo.findById(db, fileId).then(
      (row) => (row ? undefined : stop.abort(gone())),
      () => undefined, // the database away a moment: the next check
    );
  }, READ_CHECK_MS).unref();
  try {
    return await read(stop.signal);
  } finally {
    clearInterval(check);
    stops.delete(stop);
    if (stops.size === 0) byFile.delete(fileId);
  }
}

/** Stops the reads of these files (just deleted) in this process. */
export function stopReadsOf(db: Db, fileIds: number[]): void {
  const byFile = underWay.get(db);
  for (const id of fileIds) for (const stop of byFile?.get(id) ?? []) stop.abort(gone());
}
