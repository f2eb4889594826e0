import type { ChatMessageState } from '../../db/schema';
import { notFound } from '../../lib/http-error';
import { chatRepo } from './chat.repo';
import { getUsage, type ChatDeps } from './chat.service';
import { ReplyStopped, type ReplyNews } from './live-replies';
import { replyState } from './reply-state';

/**
 * Follows one of the user's replies from its start, wherever it is generated: this process's
 * live reply at once (its text so far, then each token), or, for a reply another app server
 * generates, its row every `pollMs` (that server saves the text as it grows). `onNews` gets the
 * text so far as a first token, each next piece, then the end. Resolves once it ended, or when
 * `signal` aborts (the listener left; the reply goes on).
 */
export async function followReply(
  deps: ChatDeps & { pollMs: number },
  userId: number,
  replyId: number,
  onNews: (news: ReplyNews) => void,
  signal: AbortSignal,
): Promise<void> {
  const row = await chatRepo.findReply(deps.db, userId, replyId);
  if (!row) throw notFound('Reply not found');
  const live = deps.replies.get(replyId);
  if (live && !live.ended) {
    if (live.text) onNews({ kind: 'token', text: live.text });
    await new Promise<void>((resolve) => {
      const unsubscribe = live.subscribe((news) => {
        onNews(news);
        if (news.kind === 'done' || news.kind === 'error') finish();
      });
      const finish = () => {
        unsubscribe();
        signal.removeEventListener('abort', finish);
        resolve();
      };
      signal.addEventListener('abort', finish, { once: true });
    });
    return;
  }
  await pollReply(deps, userId, row, onNews, signal);
}

type ReplyRow = { id: number; content: string; state: ChatMessageState; updated_at: string | null };

async function pollReply(
  deps: ChatDeps & { pollMs: number },
  userId: number,
  first: ReplyRow,
  onNews: (news: ReplyNews) => void,
  signal: AbortSignal,
) {
  let sent = 0;
  let row: ReplyRow | undefined = first;
  while (!signal.aborted) {
    if (!row) {
      // Removed meanwhile (history cleared, or failed before its first token).
      onNews({ kind: 'error', error: { error: 'Reply not found', status: 404 } });
      return;
    }
    if (row.content.length > sent) {
      onNews({ kind: 'token', text: row.content.slice(sent) });
      sent = row.content.length;
    }
    const state = replyState(row, deps.staleMs);
    if (state !== 'streaming') {
      const usage = await getUsage(deps, userId);
      onNews({
        kind: 'done',
        done: {
          response: row.content,
          ...usage,
          ...(state === 'stopped' ? { stopped: true } : {}),
        },
      });
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, deps.pollMs);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
    // This process may have taken it since (never: replies do not move), or it ended elsewhere.
    row = await chatRepo.findReply(deps.db, userId, first.id);
  }
}

/**
 * Stops one of the user's replies where it is generated and answers once it is stored as
 * stopped: here at once; on another app server through its row, which that server's next save
 * reads. An ended reply is left as it is.
 */
export async function stopReply(
  deps: ChatDeps & { pollMs: number },
  userId: number,
  replyId: number,
): Promise<void> {
  const row = await chatRepo.findReply(deps.db, userId, replyId);
  if (!row) throw notFound('Reply not found');
  const live = deps.replies.get(replyId);
  if (live) {
    live.stop(new ReplyStopped('stopped'));
    await live.whenEnded();
    return;
  }
  if (replyState(row, deps.staleMs) !== 'streaming') return;
  await chatRepo.requestStop(deps.db, replyId);
  const gone = new AbortController();
  const timer = setTimeout(() => gone.abort(), deps.staleMs);
  try {
    await pollReply(deps, userId, row, () => {}, gone.signal);
  } finally {
    clearTimeout(timer);
  }
}
