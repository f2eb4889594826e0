import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { HttpError } from '../../lib/http-error';
import { buildPrompt, replyTokensFor } from './chat-prompt';
import { chatRepo } from './chat.repo';
import type { LanguageModel } from '../ai';
import { ReplyStopped, type LiveReply } from './live-replies';

/**
 * What generating a reply needs: a part of chat.service.ts's ChatDeps, named here so generation
 * and the service that starts it do not import each other.
 */
export interface GenerationDeps {
  db: Db;
  dialect: Dialect;
  ai: LanguageModel;
  promptLimit: number;
  saveEveryMs: number;
}

/**
 * Generates one reply to its end, whoever listens. The exchange is stored as generation starts
 * (beside it, not before it: the first token does not wait for the insert), its text saved every
 * `saveEveryMs` (the heartbeat; a Stop sent to another app server is seen there), and it ends as
 * 'done', or 'stopped' with what it had (Stop, a failure after the first token, this process
 * stopping). New Topic and account deletion stop it too: at once when they reach this process,
 * otherwise at its next save, which finds its row gone. The prompt reserved for it is given back only when no token was sent; a reply that
 * failed before its first token is removed, as if it had never been asked.
 */
export async function generateReply(
  deps: GenerationDeps,
  live: LiveReply,
  ask: { userId: number; text: string; day: string; current: number; historyWindow: number },
): Promise<void> {
  const { db, dialect } = deps;
  const signal = live.controller.signal;
  let storing: Promise<{ questionId: number; replyId: number }> | undefined;
  let saver: NodeJS.Timeout | undefined;
  try {
    const history = await chatRepo.recentMessages(db, ask.userId, ask.historyWindow);
    const contextTokens = deps.ai.contextTokens();
    const replyTokens = replyTokensFor(contextTokens);
    const turns = buildPrompt(history, ask.text, {
      contextTokens,
      replyTokens,
      countTokens: (t) => deps.ai.countTokens(t),
    });
    storing = withUnsyncedCommit(db, dialect, (trx) =>
      chatRepo.startExchange(trx, ask.userId, ask.text),
    );
    storing.then(
      (ids) => live.publish({ kind: 'id', id: ids.replyId }),
      // A reply that cannot be stored would fail at its end (its account gone meanwhile, the
      // database down): it stops now rather than run to its token limit for nobody.
      (err: unknown) => live.controller.abort(err),
    );
    saver = startSaving(deps, live, storing);
    const opts = {
      signal,
      maxTokens: replyTokens,
      priority: 'interactive',
      owner: ask.userId,
      conversation: true,
    } as const;
    for await (const piece of deps.ai.stream(turns, opts))
      live.publish({ kind: 'token', text: piece });
    signal.throwIfAborted();
    clearInterval(saver);
    const ids = await storing;
    await chatRepo.endReply(db, ids.replyId, live.text, 'done');
    live.publish({
      kind: 'done',
      done: { response: live.text, current: ask.current, max: deps.promptLimit },
    });
  } catch (err) {
    clearInterval(saver);
    const stopped = signal.aborted && signal.reason instanceof ReplyStopped;
    let current = ask.current;
    try {
      if (!live.text) {
        await withUnsyncedCommit(db, dialect, (trx) =>
          chatRepo.releasePrompt(trx, ask.userId, ask.day),
        );
        current = await chatRepo.usage(db, ask.userId, ask.day);
      }
      const ids = await storing?.catch(() => undefined);
      if (ids && (live.text || stopped)) {
        await chatRepo.endReply(db, ids.replyId, live.text, 'stopped');
      } else if (ids) await chatRepo.deleteExchange(db, ids);
    } catch {
      // The database failed too: a 'streaming' row goes stale and reads as stopped.
    }
    if (stopped) {
      live.publish({
        kind: 'done',
        done: { response: live.text, current, max: deps.promptLimit, stopped: true },
      });
    } else {
      const status = err instanceof HttpError ? err.statusCode : 500;
      const error = err instanceof HttpError ? err.message : ERROR_MESSAGES.internal;
      live.publish({ kind: 'error', error: { error, status }, cause: err });
    }
  }
}

/**
 * Saves the text every `saveEveryMs` once the exchange is stored; learns of a Stop, New Topic or
 * account deletion on another app server.
 */
function startSaving(
  deps: GenerationDeps,
  live: LiveReply,
  storing: Promise<{ replyId: number }>,
): NodeJS.Timeout {
  let replyId: number | undefined;
  storing.then(
    (ids) => (replyId = ids.replyId),
    () => {},
  );
  let saving = false;
  return setInterval(() => {
    if (replyId === undefined || saving || live.controller.signal.aborted) return;
    saving = true;
    const id = replyId;
    withUnsyncedCommit(deps.db, deps.dialect, (trx) => chatRepo.saveReply(trx, id, live.text))
      .then((state) => {
        if (state === 'stopping') live.stop(new ReplyStopped('stopped from another server'));
        // Its row is gone: New Topic or the account's deletion, maybe on another app server.
        else if (state === undefined) live.stop(new ReplyStopped('its conversation is gone'));
      })
      .catch(() => {}) // a database hiccup: the next save tries again
      .finally(() => (saving = false));
  }, deps.saveEveryMs);
}
