import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeQuotedPrintable } from './smtp-test-server';

/** Mails the server wrote to DATA_DIR/outbox (no SMTP_URL), oldest first, bodies decoded. */
export function readOutbox(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => decodeQuotedPrintable(readFileSync(path.join(dir, f), 'utf8')));
}

/** The invitation token of the newest invitation mailed to `email`, from its link. */
export function mailedInvitation(dataDir: string, email: string): { link: string; token: string } {
  const mail = readOutbox(dataDir)
    .reverse()
    .find((m) => m.includes(`To: ${email}`) && m.includes('invitation'));
  if (!mail) throw new Error(`no invitation mailed to ${email}`);
  const link = /https?:\/\/\S+\/register\?invite=[\w-]+&email=\S+/.exec(mail)?.[0];
  if (!link) throw new Error(`no invitation link in:\n${mail}`);
  return { link, token: new URL(link).searchParams.get('invite')! };
}
