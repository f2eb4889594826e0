import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * What a backup makes before its archive is whole: a staging folder in DATA_DIR (hard links to
 * every stored file, deleted accounts' included, and a copy of the database and signing key) and
 * a partial archive beside the final one. Both names carry the process that made them (its pid,
 * and its host, since a container has its own pids), so what a killed backup left is told apart
 * from a backup still running, and removed by the next backup or server start.
 */
const host = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const STAGING = /^\.backup-(\d+)-[0-9a-f]{12}-([0-9a-f]{8})$/;
/** What versions before the pid in the name left (no owner to ask: always a leftover). */
const OLD_STAGING = /^\.backup-[0-9a-f]{12}$/;
const PARTIAL = /\.partial-(\d+)-([0-9a-f]{8})$/;

export function stagingName(): string {
  return `.backup-${process.pid}-${randomBytes(6).toString('hex')}-${host}`;
}

export function partialName(archive: string): string {
  return `${archive}.partial-${process.pid}-${host}`;
}

/** Whether a process of this host with that pid still runs (another user's counts as running). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Left by a backup of this host that is no longer running; another host's are never touched. */
function isLeftover(match: RegExpExecArray | null): boolean {
  return match !== null && match[2] === host && !alive(Number(match[1]));
}

/**
 * Removes what killed backups left: staging folders in `dataDir`, and partial archives in
 * `archiveDir` when given. Answers the names removed.
 */
export async function removeLeftovers(dataDir: string, archiveDir?: string): Promise<string[]> {
  const removed: string[] = [];
  const sweep = async (dir: string, leftover: (name: string) => boolean) => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!leftover(name)) continue;
      await rm(path.join(dir, name), { recursive: true, force: true });
      removed.push(path.join(dir, name));
    }
  };
  await sweep(dataDir, (n) => OLD_STAGING.test(n) || isLeftover(STAGING.exec(n)));
  if (archiveDir) await sweep(archiveDir, (n) => isLeftover(PARTIAL.exec(n)));
  return removed;
}
