import { ALERT_SEVERITIES, alertSeveritySchema } from '@inkwell/contract';
import { loadSettings } from '../../config';
import { readEnvironment } from '../../environment';
import { openDatabase } from '../../db/database';
import {
  finishCli,
  parseCliArgs,
  runOperatorCli,
  UsageError,
  type CliOutcome,
} from '../../lib/operator-cli';
import { alertsRepo } from './alerts.repo';

export const ALERT_USAGE = `Usage: npm run alert -- <options>
  --message "<text>" [--severity ${ALERT_SEVERITIES.join('|')}] [--title "<text>"]
                          shows the alert to every visitor (severity defaults to info)
  --clear                 hides the alert
  help, --help            this text`;

/**
 * Operator command: `npm run alert -- --message "…" --severity warning [--title "…"]`, or
 * `npm run alert -- --clear`. Writes to the same database the server reads.
 */
export async function runAlertCli(argv: string[], env = readEnvironment()): Promise<string> {
  const { values, positionals } = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: {
        message: { type: 'string' },
        severity: { type: 'string', default: 'info' },
        title: { type: 'string' },
        clear: { type: 'boolean', default: false },
      },
    },
    ALERT_USAGE,
  );
  if (positionals.length > 0) throw new UsageError(`Unexpected argument '${positionals[0]}'`);
  if (!values.clear && !values.message) throw new UsageError('--message is required (or --clear)');
  const severity = alertSeveritySchema.safeParse(values.severity);
  if (!severity.success)
    throw new UsageError(`--severity must be one of ${ALERT_SEVERITIES.join(', ')}`);
  const config = loadSettings(env);
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    if (values.clear) {
      await alertsRepo.clear(handle.db);
      return 'Alert cleared.';
    }
    await alertsRepo.set(handle.db, {
      message: values.message!,
      severity: severity.data,
      title: values.title,
    });
    return `Alert set (${severity.data}): ${values.message}`;
  } finally {
    await handle.close();
  }
}

/** The command as the operator runs it: usage on --help/help (exit 0) and on misuse (exit 2). */
export function alertCli(argv: string[], env = readEnvironment()): Promise<CliOutcome> {
  return runOperatorCli(argv, ALERT_USAGE, () => runAlertCli(argv, env));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  finishCli(alertCli(process.argv.slice(2)));
}
