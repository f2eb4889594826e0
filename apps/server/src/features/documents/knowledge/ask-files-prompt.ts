import type { Db, Dialect } from '../../../db/database';
import { withUnsyncedCommit } from '../../../db/unsynced-commit';
import { releasePrompt, reservePrompt } from '../../chat';

/**
 * The prompt a question across files counts, of the day's allowance it shares with the chat. As
 * the chat's do, the commits skip the fsync: a power cut that rolled one back would only give a
 * prompt back, or take back one already given.
 */
export const takeAskPrompt = (
  db: Db,
  dialect: Dialect,
  p: { userId: number; day: string; limit: number },
) => withUnsyncedCommit(db, dialect, (trx) => reservePrompt(trx, p.userId, p.day, p.limit));

/** Gives back the prompt of a question that got no answer: to be called once per question. */
export const giveAskPromptBack = (db: Db, dialect: Dialect, p: { userId: number; day: string }) =>
  withUnsyncedCommit(db, dialect, (trx) => releasePrompt(trx, p.userId, p.day));
