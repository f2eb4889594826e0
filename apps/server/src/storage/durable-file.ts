import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';

/**
 * Bytes gathered into one writev. A write is a round trip to the thread pool; socket-sized (64 KB)
 * writes meant some 160 of them per 10 MB, each a chance to wait for a busy CPU.
 */
const BATCH_BYTES = 1024 * 1024;
/**
 * Flush to disk in the background each time this much more was written (one flush at a time), so
 * the disk works while the rest still arrives and the closing fsync only waits for the tail.
 */
const SYNC_EVERY_BYTES = 1024 * 1024;

/**
 * A new file (created exclusively) that is on disk, not just in the page cache, once the stream
 * finishes: `finish` comes only after a closing fsync, so whoever records the file afterwards
 * never points at bytes a power cut could lose. Holds at most about two batches in memory.
 *
 * With a `finalFile`, the file is written as `file` and renamed to `finalFile` once every byte is
 * written, before the closing fsync: the file's fsync and its folder's then wait for one journal
 * commit, not one each. A crash before `finish` can so leave a partial `finalFile`; its owner must
 * treat the name as unrecorded until `finish` (the upload's row stays pending until then).
 */
export class DurableFileWriter extends Writable {
  bytesWritten = 0;
  private handle?: FileHandle;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private syncedUpTo = 0;
  private syncing?: Promise<void>;
  private syncError?: unknown;

  constructor(
    private readonly file: string,
    private readonly finalFile = file,
  ) {
    super({ highWaterMark: BATCH_BYTES });
  }

  override _construct(done: (err?: Error | null) => void): void {
    open(this.file, 'wx').then((h) => {
      this.handle = h;
      done();
    }, done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (err?: Error | null) => void): void {
    for (const { chunk } of chunks) {
      this.batch.push(chunk);
      this.batchBytes += chunk.length;
    }
    if (this.batchBytes < BATCH_BYTES) return done();
    this.writeBatch().then(() => {
      this.syncInBackground();
      done();
    }, done);
  }

  override _final(done: (err?: Error | null) => void): void {
    this.writeBatch()
      .then(() => this.syncAndClose())
      .then(() => done(), done);
  }

  /** On failure: close the file (FileHandle waits for writes in flight); the caller removes it. */
  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    this.batch = [];
    Promise.resolve(this.syncing)
      .then(() => handle?.close())
      .then(
        () => done(err),
        (closeErr: Error) => done(err ?? closeErr),
      );
  }

  private async writeBatch(): Promise<void> {
    const handle = this.handle!;
    let pending = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    while (pending.length > 0) {
      const { bytesWritten } = await handle.writev(pending);
      this.bytesWritten += bytesWritten;
      pending = dropBytes(pending, bytesWritten);
    }
  }

  private syncInBackground(): void {
    // No handle: destroyed while the batch was being written; the file is closed or closing.
    const handle = this.handle;
    if (!handle || this.syncing || this.bytesWritten - this.syncedUpTo < SYNC_EVERY_BYTES) return;
    const upTo = this.bytesWritten;
    this.syncing = handle.datasync().then(
      () => {
        this.syncedUpTo = upTo;
        this.syncing = undefined;
        this.syncInBackground(); // more was written meanwhile: the disk goes straight on
      },
      (err: unknown) => {
        this.syncError = err;
        this.syncing = undefined;
      },
    );
  }

  private async syncAndClose(): Promise<void> {
    const handle = this.handle!;
    this.handle = undefined;
    const moves = this.finalFile !== this.file;
    try {
      if (moves) await renameCreatingDir(this.file, this.finalFile);
      // Not after the background flush but beside it: the disk then finishes all in one wait.
      await Promise.all([
        handle.sync(),
        this.syncing,
        moves && fsyncDir(path.dirname(this.finalFile)),
      ]);
      // Checked after all: the kernel reports a failed write-back to one sync call only.
      if (this.syncError) throw this.syncError;
    } finally {
      await handle.close();
    }
  }
}

/** What is left of `buffers` after the first `n` bytes were written (a short write). */
export function dropBytes(buffers: Buffer[], n: number): Buffer[] {
  let i = 0;
  while (i < buffers.length && n >= buffers[i]!.length) n -= buffers[i++]!.length;
  if (i === buffers.length) return [];
  return [buffers[i]!.subarray(n), ...buffers.slice(i + 1)];
}

/**
 * Renames `from` to `to`, making `to`'s folder first if it is missing: it is, for a user's first
 * file and after "delete all" removed the folder, so the common case needs no mkdir.
 */
async function renameCreatingDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const dir = path.dirname(to);
    const firstMade = await mkdir(dir, { recursive: true });
    await rename(from, to);
    // Each new folder is an entry in its parent; those must be on disk too, not just the file's.
    for (let d = dir; firstMade && d !== path.dirname(firstMade); d = path.dirname(d)) {
      await fsyncDir(path.dirname(d));
    }
  }
}

/** Makes a rename or a new entry in `dir` durable (the file's own fsync does not cover it). */
async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
