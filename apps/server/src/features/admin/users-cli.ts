import path from 'node:path';
import { parseArgs } from 'node:util';
import { destination, pino } from 'pino';
import { emailSchema } from '@inkwell/contract';
import { loadSettings } from '../../config';
import { readEnvironment } from '../../environment';
import { openDatabase } from '../../db/database';
import { createStorage } from '../../plugins/storage';
import { createMailer } from '../mail/mailer';
import { adminDeps } from './admin-deps';
import * as admin from './admin.service';
import { usersTable } from './users-table';

export const USERS_USAGE = `Usage: npm run users -- <command>
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
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { mail: { type: 'boolean', default: false } },
  });
  const [command, target, ...extra] = positionals;
  const needsEmail = ['disable', 'enable', 'delete', 'invite', 'promote', 'demote'].includes(
    command ?? '',
  );
  const known = command === 'list' ? target === undefined : needsEmail;
  if (!known || extra.length > 0) {
    throw new Error(USERS_USAGE);
  }
  let email = '';
  if (needsEmail) {
    const parsed = emailSchema.safeParse(target ?? '');
    if (!parsed.success)
      throw new Error(`${command}: a valid email address is required\n${USERS_USAGE}`);
    email = parsed.data;
  }

  // The CLI signs no tokens: it needs the settings, not the signing key (which PostgreSQL requires).
  const config = loadSettings(env);
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    const deps = adminDeps(config, {
      db: handle.db,
      storage: createStorage(config),
      mailer: createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        outboxDir: path.join(config.dataDir, 'outbox'),
        log: pino({ level: 'warn' }, destination(2)),
      }),
    });
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

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  runUsersCli(process.argv.slice(2)).then(
    (msg) => console.log(msg),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
