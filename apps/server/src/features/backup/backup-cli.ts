import { chmod, mkdir } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../config';
import { PROJECT_ROOT, readEnvironment } from '../../environment';
import { assertLocalData, backup, type BackupOptions } from './backup';
import { restore } from './restore';

export const BACKUP_USAGE = `Usage:
  npm run backup [-- <archive.tar.gz>]   snapshot DATA_DIR while the server runs (default: backups/inkwell-<time>.tar.gz)
  npm run restore -- <archive.tar.gz>    bring an archive back into an empty DATA_DIR`;

/** A path the operator typed, from the directory npm was run in (npm runs this in apps/server). */
const fromWhereTyped = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

export async function runBackupCli(
  argv: string[],
  env = readEnvironment(),
  opts: BackupOptions = {},
): Promise<string> {
  const [command, file, ...extra] = argv;
  if (extra.length > 0 || (command !== 'backup' && command !== 'restore'))
    throw new Error(BACKUP_USAGE);
  const settings = loadSettings(env);
  if (command === 'backup') {
    assertLocalData(settings);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    let archive: string;
    if (file) archive = fromWhereTyped(file);
    else {
      // Our own folder: private even if an earlier version made it readable to all.
      const folder = path.join(PROJECT_ROOT, 'backups');
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await chmod(folder, 0o700);
      archive = path.join(folder, `inkwell-${stamp}.tar.gz`);
    }
    const done = await backup(settings, archive, opts);
    return `Backed up ${settings.dataDir} (database and ${done.files} files) to ${done.archive}`;
  }
  if (!file) throw new Error(`restore: the archive is required\n${BACKUP_USAGE}`);
  assertLocalData(settings);
  const done = await restore(fromWhereTyped(file), settings.dataDir);
  return `Restored ${done.entries.join(', ')} into ${settings.dataDir}`;
}

const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * The command as a process. A backup runs beside a working server: it yields the CPU to the
 * server's users. Ctrl-C (SIGINT) or SIGTERM stops a backup, which removes its staging folder and
 * partial archive before the process ends (a second signal ends it at once); `onStep` is for the
 * tests, which pause a backup at a known step.
 */
export function runAsProcess(argv: string[], onStep?: BackupOptions['onStep']): void {
  setPriority(19);
  const stop = new AbortController();
  let received: keyof typeof SIGNAL_NUMBERS | undefined;
  if (argv[0] === 'backup') {
    for (const name of ['SIGINT', 'SIGTERM'] as const)
      process.on(name, () => {
        if (received) process.exit(128 + SIGNAL_NUMBERS[received]);
        received = name;
        stop.abort(new Error(`stopped by ${name}`));
      });
  }
  runBackupCli(argv, readEnvironment(), { onStep, signal: stop.signal }).then(
    (msg) => {
      console.log(msg);
      process.exit(0);
    },
    (err: Error) => {
      if (!received) {
        console.error(err.message);
        process.exit(1);
      }
      console.error(`Backup stopped (${received}): what it had made is removed.`);
      process.exit(128 + SIGNAL_NUMBERS[received]);
    },
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  runAsProcess(process.argv.slice(2));
}
