import type { AccountCleanup } from '../../lib/account-cleanup';
import { userPrefix, type Storage } from '../../storage/storage';

/**
 * A deleted account's stored files (users/<id>/). After its rows: the files' rows cascade with
 * the account, and an upload finishing meanwhile finds no account to store for.
 */
export function filesAccountCleanup(deps: { storage: Storage }): AccountCleanup {
  return {
    feature: 'files',
    removes: "the account's stored files (users/<id>/ in storage)",
    when: 'after-rows',
    run: (userId) => deps.storage.deletePrefix(userPrefix(userId)),
  };
}
