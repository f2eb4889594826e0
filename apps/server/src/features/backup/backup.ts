import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import type { Settings } from '../../config';
import { partialName, removeLeftovers, stagingName } from './backup-leftovers';

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

/** The steps of a backup, told to `onStep` before each (the server keeps writing between them). */
export type BackupStep = 'files' | 'database' | 'new files' | 'archive' | 'writing archive';

export interface BackupOptions {
  /** Told before each step; the tests wait on it, or pause the backup there. */
  onStep?: (step: BackupStep) => Promise<void>;
  /** Stops the backup (Ctrl-C): whatever it made is removed, and it rejects with the reason. */
  signal?: AbortSignal;
}

/**
 * A consistent snapshot of DATA_DIR while the server runs, as one .tar.gz: the stored files first
 * (hard links: an object is written once, by rename, and never changed, so a link is its bytes),
 * then the database through SQLite's online backup (one read transaction: WAL lets the server
 * write on), then the files that appeared meanwhile, so every file row of the snapshot has its
 * object. The cached texts are in the database. Runs at the lowest CPU priority.
 *
 * It holds the database and the signing key: the staging folder and the archive's folder are
 * made 0700, the archive 0600. Stopped or failed, it removes its staging folder and partial
 * archive; a killed backup's are removed by the next one (and at server start).
 */
export async function backup(
  settings: Pick<Settings, 'dataDir' | 'DATABASE_URL' | 'S3_ENDPOINT'>,
  archive: string,
  { onStep = async () => {}, signal }: BackupOptions = {},
): Promise<{ archive: string; files: number }> {
  assertLocalData(settings);
  const { dataDir } = settings;
  if (!existsSync(path.join(dataDir, DATABASE)))
    throw new BackupError(`No database in ${dataDir}: nothing to back up (is DATA_DIR right?).`);
  const step = async (name: BackupStep) => {
    signal?.throwIfAborted();
    await onStep(name);
    signal?.throwIfAborted();
  };
  await removeLeftovers(dataDir, path.dirname(archive));
  const staging = path.join(dataDir, stagingName());
  await mkdir(staging, { mode: 0o700 });
  try {
    await step('files');
    for (const dir of LINKED_DIRS)
      await linkTree(path.join(dataDir, dir), path.join(staging, dir), signal);
    await step('database');
    await snapshotDatabase(path.join(dataDir, DATABASE), path.join(staging, DATABASE));
    await step('new files');
    let files = 0;
    for (const dir of LINKED_DIRS)
      files += await linkTree(path.join(dataDir, dir), path.join(staging, dir), signal);
    for (const name of COPIED)
      if (existsSync(path.join(dataDir, name))) {
        await copyFile(path.join(dataDir, name), path.join(staging, name));
        await chmod(path.join(staging, name), 0o600);
      }
    const entries = (await readdir(staging)).sort();
    await writeFile(
      path.join(staging, MANIFEST),
      `${JSON.stringify({ format: 1, created_at: new Date().toISOString(), entries }, null, 2)}\n`,
      { mode: 0o600 },
    );
    await step('archive');
    await mkdir(path.dirname(archive), { recursive: true, mode: 0o700 });
    await writeArchive(staging, [MANIFEST, ...entries], archive, step, signal);
    return { archive, files };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * The .tar.gz of the staging folder, written to a partial file (0600 from its creation) renamed
 * into place once whole; a stopped or failed write removes it.
 */
async function writeArchive(
  staging: string,
  entries: string[],
  archive: string,
  step: (name: BackupStep) => Promise<void>,
  signal: AbortSignal | undefined,
) {
  const partial = partialName(archive);
  // Created here, never reused: a file of the same name (a dead process with our pid) goes first.
  await rm(partial, { force: true });
  const file = await open(partial, 'wx', 0o600);
  try {
    let first = true;
    // 'writing archive' is told once the first bytes are on their way into the partial file.
    const tellFirst = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (!first) return done(null, chunk);
        first = false;
        this.push(chunk);
        step('writing archive').then(() => done(), done);
      },
    });
    // Level 1: most stored files (pdf, docx, images) are compressed already; the CPU goes to users.
    const tarball = tar.create({ gzip: { level: 1 }, cwd: staging, portable: true }, entries);
    await pipeline(tarball, tellFirst, file.createWriteStream(), { signal });
    await rename(partial, archive);
  } catch (err) {
    await file.close().catch(() => {});
    await rm(partial, { force: true });
    throw err;
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
async function linkTree(from: string, to: string, signal?: AbortSignal): Promise<number> {
  if (!existsSync(from)) return 0;
  let count = 0;
  for (const entry of await readdir(from, { withFileTypes: true, recursive: true })) {
    signal?.throwIfAborted();
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const rel = path.relative(from, source);
    if (rel.split(path.sep)[0] === '.tmp') continue;
    const target = path.join(to, rel);
    count += 1;
    if (existsSync(target)) continue;
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await link(source, target).catch((err: NodeJS.ErrnoException) => {
      // Deleted since the listing: the snapshot may not have its row either.
      if (err.code === 'ENOENT') count -= 1;
      else throw err;
    });
  }
  return count;
}
