import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import { BackupError, MANIFEST } from './backup';

/**
 * Brings an archive of `npm run backup` back into DATA_DIR, which must be empty (or not exist): a
 * restore never mixes with data that is there. The archive's entries are plain relative paths
 * (tar strips absolute ones and refuses `..`); it is checked to be one of ours, and the database to
 * be whole, before it counts as restored; a failed restore leaves DATA_DIR empty again. What it
 * restores is as private as the archive was: folders 0700, files 0600 (and DATA_DIR 0700 when
 * the restore makes it).
 */
export async function restore(archive: string, dataDir: string): Promise<{ entries: string[] }> {
  if (!existsSync(archive)) throw new BackupError(`No archive at ${archive}.`);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const present = await readdir(dataDir);
  if (present.length > 0)
    throw new BackupError(
      `${dataDir} is not empty (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}): restore into an empty DATA_DIR.`,
    );
  try {
    await tar.extract({ file: archive, cwd: dataDir, strict: true, preserveOwner: false });
    const manifestFile = path.join(dataDir, MANIFEST);
    if (!existsSync(manifestFile))
      throw new BackupError(`${archive} is not an archive of npm run backup (no ${MANIFEST}).`);
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { entries: string[] };
    const db = new SQLite(path.join(dataDir, 'inkwell.db'), { fileMustExist: true });
    try {
      const check = db.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`The archive's database is damaged: ${check}`);
    } finally {
      db.close();
    }
    await rm(manifestFile);
    await makePrivate(dataDir);
    return { entries: manifest.entries };
  } catch (err) {
    for (const name of await readdir(dataDir))
      await rm(path.join(dataDir, name), { recursive: true, force: true });
    throw err;
  }
}

/** Owner-only modes on everything in a folder (the folder itself is the operator's). */
async function makePrivate(dir: string) {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    await chmod(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
}
