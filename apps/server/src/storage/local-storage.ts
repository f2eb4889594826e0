import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DurableFileWriter } from './durable-file';
import { StorageNotFoundError, type Storage } from './storage';

/**
 * Files on the local disk under one root. A write goes to a temp file, is fsynced, renamed into
 * place and the rename fsynced too: once put() resolves the object survives a power cut, and
 * before that it is absent, never partial.
 */
export class LocalStorage implements Storage {
  readonly shared = false;
  private readonly tmpDir: string;
  private tmpDirMade?: Promise<string>;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
  }

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep))
      throw new Error(`Bad storage key: ${key}`);
    return full;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.resolve(key);
    const tmp = path.join(await this.tmpDirReady(), randomUUID());
    try {
      const file = new DurableFileWriter(tmp);
      await pipeline(body, file);
      await renameCreatingDir(tmp, target);
      await fsyncDir(path.dirname(target));
      return { size: file.bytesWritten };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * The temp folder, made once: two mkdir round trips to the thread pool on every upload cost
   * more than a millisecond. Only sweepTemp empties it, and it never removes the folder itself.
   */
  private tmpDirReady(): Promise<string> {
    this.tmpDirMade ??= mkdir(this.tmpDir, { recursive: true }).then(
      () => this.tmpDir,
      (err: unknown) => {
        this.tmpDirMade = undefined; // a later upload tries again
        throw err;
      },
    );
    return this.tmpDirMade;
  }

  async get(key: string): Promise<Readable> {
    const file = this.resolve(key);
    try {
      await stat(file);
    } catch {
      throw new StorageNotFoundError(key);
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const dir = this.resolve(prefix);
    let entries;
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isFile()) continue;
      const full = path.join(e.parentPath, e.name);
      yield path.relative(this.root, full).split(path.sep).join('/');
    }
  }

  /**
   * Removes the temp files of uploads a crash cut short. For start-up only: a local disk has one
   * app server, so no upload can be running yet. Returns how many there were.
   */
  async sweepTemp(): Promise<number> {
    const names = await readdir(this.tmpDir).catch(() => []);
    await Promise.all(
      names.map((n) => rm(path.join(this.tmpDir, n), { recursive: true, force: true })),
    );
    return names.length;
  }
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
