import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isOutOfSpace } from '../lib/out-of-space';
import { DurableFileWriter } from './durable-file';
import { StorageFullError, StorageNotFoundError, type Storage } from './storage';
import { memoUntilFailure } from '../lib/memo-until-failure';

/**
 * Files on the local disk under one root. A write goes to a temp file, which is renamed into place
 * once every byte is written, and then fsynced together with its folder (see DurableFileWriter):
 * readers never see a partial object, and once put() resolves the object survives a power cut.
 */
export class LocalStorage implements Storage {
  readonly shared = false;
  private readonly tmpDir: string;

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
    let tmp: string | undefined;
    try {
      tmp = path.join(await this.tmpDirReady(), randomUUID());
      const file = new DurableFileWriter(tmp, target);
      await pipeline(body, file);
      return { size: file.bytesWritten };
    } catch (err) {
      // Either name may hold the partial file, depending on where it failed. Removing needs no
      // room, so a full disk is left as it was found.
      await Promise.all([tmp && rm(tmp, { force: true }), rm(target, { force: true })]);
      throw isOutOfSpace(err) ? new StorageFullError(err) : err;
    }
  }

  /**
   * The temp folder, made once: two mkdir round trips to the thread pool on every upload cost
   * more than a millisecond. Only sweepTemp empties it, and it never removes the folder itself.
   */
  private readonly tmpDirReady = memoUntilFailure(() =>
    mkdir(this.tmpDir, { recursive: true }).then(() => this.tmpDir),
  );

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
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
