import type { AccountCleanup } from '../../lib/account-cleanup';
import type { LiveReplies } from './live-replies';

/**
 * A deleted account's replies being written: this process's stop at once, first of all; another
 * app server's stop at their next save, which finds the reply's row gone.
 */
export function chatAccountCleanup(replies: LiveReplies): AccountCleanup {
  return {
    feature: 'chat',
    removes: "the account's chat replies being written in this process (stopped)",
    when: 'before-rows',
    run: (userId) => replies.stopAllOf(userId, 'the account is deleted'),
  };
}
