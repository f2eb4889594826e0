import type { Db } from './db/database';
import type { AccountCleanup } from './lib/account-cleanup';
import type { Storage } from './storage/storage';
import { chatAccountCleanup, type LiveReplies } from './features/chat';
import { filesAccountCleanup } from './features/files';
import { jobsAccountCleanup } from './features/jobs';

/**
 * What deleting an account removes besides its rows, each feature saying what: the users feature
 * runs these around deleting the rows (users.service.ts deleteAccount), knowing none of them.
 * `replies` is this process's chat replies (an app server's); the `npm run users` CLI has none.
 */
export function accountCleanup(
  services: { db: Db; storage: Storage },
  replies?: LiveReplies,
): AccountCleanup[] {
  return [
    ...(replies ? [chatAccountCleanup(replies)] : []),
    jobsAccountCleanup(services),
    filesAccountCleanup(services),
  ];
}
