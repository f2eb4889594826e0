import { parseArgs } from 'node:util';
import { ALERT_SEVERITIES, alertSeveritySchema } from '@inkwell/contract';
import { loadSettings } from '../../config';
import { readEnvironment } from '../../environment';
import { openDatabase } from '../../db/database';
import { alertsRepo } from './alerts.repo';

/**
 * Operator command: `npm run alert -- --message "…" --severity warning [--title "…"]`, or
 * `npm run alert -- --clear`. Writes to the same database the server reads.
 */
export async function runAlertCli(argv: string[], env = readEnvironment()): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: {
      message: { type: 'string' },
      severity: { type: 'string', default: 'info' },
      title: { type: 'string' },
      clear: { type: 'boolean', default: false },
    },
  });
  const config = loadSettings(env);
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    if (values.clear) {
      await alertsRepo.clear(handle.db);
      return 'Alert cleared.';
    }
    if (!values.message) throw new Error('--message is required (or --clear)');
    const severity = alertSeveritySchema.safeParse(values.severity);
    if (!severity.success)
      throw new Error(`--severity must be one of ${ALERT_SEVERITIES.join(', ')}`);
    await alertsRepo.set(handle.db, {
      message: values.message,
      severity: severity.data,
      title: values.title,
    });
    return `Alert set (${severity.data}): ${values.message}`;
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  runAlertCli(process.argv.slice(2)).then(
    (msg) => console.log(msg),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
