import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageNotFoundError, type Storage } from './storage';

/** Files on the local disk under one root. Writes go to a temp file renamed into place. */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep))
      throw new Error(`Bad storage key: ${key}`);
    return full;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const target = this.resolve(key);
    await mkdir(path.dirname(target), { recursive: true });
    const tmpDir = path.join(this.root, '.tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      const { size } = await stat(tmp);
      await rename(tmp, target);
      return { size };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
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
}
