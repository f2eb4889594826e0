import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import type { Settings } from '../../config';

/** Written into every archive; `npm run restore` refuses an archive without it. */
export const MANIFEST = 'inkwell-backup.json';
/** What an archive holds besides the manifest, from DATA_DIR (models/ is downloaded again). */
const DATABASE = 'inkwell.db';
const COPIED = ['jwt-secret'];
const LINKED_DIRS = ['files', 'outbox'];

export class BackupError extends Error {}

/**
 * Refuses what `npm run backup` does not cover: PostgreSQL and S3 have their own tools (README,
 * "Backups": pg_dump, a bucket copy).
 */
export function assertLocalData(settings: Pick<Settings, 'DATABASE_URL' | 'S3_ENDPOINT'>) {
  if (settings.DATABASE_URL)
    throw new BackupError(
      'npm run backup covers SQLite and files on the local disk; with DATABASE_URL, back up PostgreSQL with pg_dump (README, "Backups").',
    );
  if (settings.S3_ENDPOINT)
    throw new BackupError(
      'npm run backup covers files on the local disk; with S3_ENDPOINT, copy the bucket (README, "Backups").',
    );
}

/**
 * A consistent snapshot of DATA_DIR while the server runs, as one .tar.gz: the stored files first
 * (hard links: an object is written once, by rename, and never changed, so a link is its bytes),
 * then the database through SQLite's online backup (one read transaction: WAL lets the server
 * write on), then the files that appeared meanwhile, so every file row of the snapshot has its
 * object. The cached texts are in the database. Runs at the lowest CPU priority.
 */
export async function backup(
  settings: Pick<Settings, 'dataDir' | 'DATABASE_URL' | 'S3_ENDPOINT'>,
  archive: string,
  /** Told before each step (the server keeps writing between them); the test waits on it. */
  onStep: (step: 'files' | 'database' | 'new files' | 'archive') => Promise<void> = async () => {},
): Promise<{ archive: string; files: number }> {
  assertLocalData(settings);
  const { dataDir } = settings;
  if (!existsSync(path.join(dataDir, DATABASE)))
    throw new BackupError(`No database in ${dataDir}: nothing to back up (is DATA_DIR right?).`);
  const staging = path.join(dataDir, `.backup-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    await onStep('files');
    for (const dir of LINKED_DIRS) await linkTree(path.join(dataDir, dir), path.join(staging, dir));
    await onStep('database');
    await snapshotDatabase(path.join(dataDir, DATABASE), path.join(staging, DATABASE));
    await onStep('new files');
    let files = 0;
    for (const dir of LINKED_DIRS)
      files += await linkTree(path.join(dataDir, dir), path.join(staging, dir));
    for (const name of COPIED)
      if (existsSync(path.join(dataDir, name)))
        await copyFile(path.join(dataDir, name), path.join(staging, name));
    const entries = (await readdir(staging)).sort();
    await writeFile(
      path.join(staging, MANIFEST),
      `${JSON.stringify({ format: 1, created_at: new Date().toISOString(), entries }, null, 2)}\n`,
    );
    await onStep('archive');
    await mkdir(path.dirname(archive), { recursive: true });
    const partial = `${archive}.partial`;
    // Level 1: most stored files (pdf, docx, images) are compressed already; the CPU goes to users.
    await tar.create({ gzip: { level: 1 }, file: partial, cwd: staging, portable: true }, [
      MANIFEST,
      ...entries,
    ]);
    await rm(archive, { force: true });
    await rename(partial, archive);
    return { archive, files };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** SQLite's online backup, all remaining pages in one step (a restart only if a write slips in). */
async function snapshotDatabase(source: string, target: string) {
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target, { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
  } finally {
    db.close();
  }
}

/**
 * Hard-links every file under `from` into `to` that is not there yet (the storage's .tmp folder of
 * unfinished uploads left out); returns how many files `to` holds.
 */
async function linkTree(from: string, to: string): Promise<number> {
  if (!existsSync(from)) return 0;
  let count = 0;
  for (const entry of await readdir(from, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const rel = path.relative(from, source);
    if (rel.split(path.sep)[0] === '.tmp') continue;
    const target = path.join(to, rel);
    count += 1;
    if (existsSync(target)) continue;
    await mkdir(path.dirname(target), { recursive: true });
    await link(source, target).catch((err: NodeJS.ErrnoException) => {
      // Deleted since the listing: the snapshot may not have its row either.
      if (err.code === 'ENOENT') count -= 1;
      else throw err;
    });
  }
  return count;
}
