import path from 'node:path';
import { destination, pino } from 'pino';
import { emailSchema } from '@inkwell/contract';
import { accountCleanup } from '../../account-cleanup';
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
import { withServerPort } from '../../lib/server-port';
import { createStorage } from '../../plugins/storage';
import { createMailer } from '../mail';
import { adminDeps } from './admin-deps';
import * as admin from './admin.service';
import { usersTable } from './users-table';

export const USERS_USAGE = `Usage: npm run users -- <command>
  help                    this text (also --help)
  list                    every account: role, status, created, last seen, files, storage, prompts today
  disable <email>         disables the account; its sessions end at once, on every server
  enable <email>          lets a disabled account sign in again
  delete <email>          deletes the account and everything it owns
  invite <email> [--mail] prints a single-use sign-up link for the address (--mail also mails it)
  promote <email>         makes the account an operator (the Admin page), while ADMIN_EMAILS is unset
  demote <email>          makes an operator an ordinary user again`;

/**
 * Operator command beside the server, on the database it uses (SQLite or PostgreSQL, from the
 * same settings): the Admin page's account actions, through the same service.
 */
export async function runUsersCli(argv: string[], env = readEnvironment()): Promise<string> {
  const { positionals, values } = parseCliArgs(
    { args: argv, allowPositionals: true, options: { mail: { type: 'boolean', default: false } } },
    USERS_USAGE,
  );
  const [command, target, ...extra] = positionals;
  const needsEmail = ['disable', 'enable', 'delete', 'invite', 'promote', 'demote'].includes(
    command ?? '',
  );
  const known = command === 'list' ? target === undefined : needsEmail;
  if (!known || extra.length > 0) {
    throw new UsageError(USERS_USAGE);
  }
  let email = '';
  if (needsEmail) {
    const parsed = emailSchema.safeParse(target ?? '');
    if (!parsed.success)
      throw new UsageError(`${command}: a valid email address is required\n${USERS_USAGE}`);
    email = parsed.data;
  }

  // The CLI signs no tokens: it needs the settings, not the signing key (which PostgreSQL requires).
  const config = withServerPort(loadSettings(env), env);
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    const storage = createStorage(config);
    const deps = {
      ...adminDeps(config, {
        db: handle.db,
        storage,
        mailer: createMailer({
          smtpUrl: config.SMTP_URL,
          from: config.MAIL_FROM,
          outboxDir: path.join(config.dataDir, 'outbox'),
          log: pino({ level: 'warn' }, destination(2)),
        }),
      }),
      // No chat replies run in the CLI's process: other processes' stop at their next save.
      accountCleanup: accountCleanup({ db: handle.db, storage }),
    };
    const cli = { cli: true } as const;
    switch (command) {
      case 'list':
        return usersTable(await admin.listUsers(deps));
      case 'disable':
      case 'enable': {
        const id = await admin.findUserId(deps, email);
        await admin.setDisabled(deps, cli, id, command === 'disable');
        return command === 'disable'
          ? `Disabled ${email}: its sessions have ended.`
          : `Enabled ${email}: it can sign in again.`;
      }
      case 'promote':
      case 'demote': {
        const role = command === 'promote' ? 'operator' : 'user';
        await admin.setRole(deps, await admin.findUserId(deps, email), role);
        const note = config.ADMIN_EMAILS.length
          ? ' ADMIN_EMAILS is set: it decides who is an operator while it is.'
          : '';
        return command === 'promote'
          ? `${email} is an operator.${note}`
          : `${email} is an ordinary user.${note}`;
      }
      case 'delete':
        await admin.deleteUser(deps, cli, await admin.findUserId(deps, email));
        return `Deleted ${email} and everything it owned.`;
      default: {
        const invitation = await admin.invite(deps, cli, email, values.mail);
        return `${invitation.message} Single-use link (valid until ${invitation.expires_at}):\n${invitation.link}`;
      }
    }
  } finally {
    await handle.close();
  }
}

/** The command as the operator runs it: usage on --help/help (exit 0) and on misuse (exit 2). */
export function usersCli(argv: string[], env = readEnvironment()): Promise<CliOutcome> {
  return runOperatorCli(argv, USERS_USAGE, () => runUsersCli(argv, env));
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  finishCli(usersCli(process.argv.slice(2)));
}
