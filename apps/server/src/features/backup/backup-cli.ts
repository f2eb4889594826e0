import { setPriority } from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../config';
import { PROJECT_ROOT, readEnvironment } from '../../environment';
import { assertLocalData, backup } from './backup';
import { restore } from './restore';

export const BACKUP_USAGE = `Usage:
  npm run backup [-- <archive.tar.gz>]   snapshot DATA_DIR while the server runs (default: backups/inkwell-<time>.tar.gz)
  npm run restore -- <archive.tar.gz>    bring an archive back into an empty DATA_DIR`;

/** A path the operator typed, from the directory npm was run in (npm runs this in apps/server). */
const fromWhereTyped = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

export async function runBackupCli(argv: string[], env = readEnvironment()): Promise<string> {
  const [command, file, ...extra] = argv;
  if (extra.length > 0 || (command !== 'backup' && command !== 'restore'))
    throw new Error(BACKUP_USAGE);
  const settings = loadSettings(env);
  if (command === 'backup') {
    assertLocalData(settings);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const archive = file
      ? fromWhereTyped(file)
      : path.join(PROJECT_ROOT, 'backups', `inkwell-${stamp}.tar.gz`);
    const done = await backup(settings, archive);
    return `Backed up ${settings.dataDir} (database and ${done.files} files) to ${done.archive}`;
  }
  if (!file) throw new Error(`restore: the archive is required\n${BACKUP_USAGE}`);
  assertLocalData(settings);
  const done = await restore(fromWhereTyped(file), settings.dataDir);
  return `Restored ${done.entries.join(', ')} into ${settings.dataDir}`;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  // A backup runs beside a working server: it yields the CPU to the server's users.
  setPriority(19);
  runBackupCli(process.argv.slice(2)).then(
    (msg) => console.log(msg),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
