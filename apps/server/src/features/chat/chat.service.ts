import type { ChatHistoryResponse, PromptUsage } from '@inkwell/contract';
import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { tooManyRequests } from '../../lib/http-error';
import { nowIso, utcDay } from '../../lib/time';
import { assertModelUsable, type LanguageModel } from '../ai';
import { generateReply } from './chat-generation';
import { chatRepo } from './chat.repo';
import { LiveReply, type LiveReplies } from './live-replies';
import { replyState } from './reply-state';

/** The chat's logic: counter, history, prompt building, generation. No HTTP here. */
export interface ChatDeps {
  db: Db;
  dialect: Dialect;
  ai: LanguageModel;
  /** Successful replies allowed per user per UTC day (PROMPT_LIMIT). */
  promptLimit: number;
  /** The replies this process generates. */
  replies: LiveReplies;
  /** How often a running reply's text is saved (its heartbeat). */
  saveEveryMs: number;
  /** A 'streaming' reply not saved for this long lost its process: it counts as stopped. */
  staleMs: number;
}

/** History rows read to build a prompt; the context budget keeps only what fits. */
const HISTORY_WINDOW = 200;
/** Most messages GET /api/chat/history returns (the newest). */
const HISTORY_PAGE = 500;

/**
 * Checks everything that must fail before a reply starts (model available, daily cap), reserves
 * one prompt of the allowance and starts generating. The reply runs on its own, whoever listens
 * (chat-generation.ts): the answer is the live reply to follow.
 */
export async function startChat(deps: ChatDeps, userId: number, text: string): Promise<LiveReply> {
  // A model still loading is waited for by the call itself (AI_LOAD_WAIT_MS).
  assertModelUsable(deps.ai.status());
  const day = utcDay();
  // The counter's commit skips the fsync: it is on the way to the first token, and a power cut
  // that rolled it back would only give a prompt back.
  const current = await withUnsyncedCommit(deps.db, deps.dialect, (db) =>
    chatRepo.reservePrompt(db, userId, day, deps.promptLimit),
  );
  if (current === null) throw tooManyRequests(ERROR_MESSAGES.rateLimited, secondsToUtcMidnight());
  const live = new LiveReply(userId);
  deps.replies.track(live);
  void generateReply(deps, live, { userId, text, day, current, historyWindow: HISTORY_WINDOW });
  return live;
}

export async function getUsage(deps: ChatDeps, userId: number): Promise<PromptUsage> {
  const current = await chatRepo.usage(deps.db, userId, utcDay());
  return { current: Math.min(current, deps.promptLimit), max: deps.promptLimit };
}

export async function getHistory(deps: ChatDeps, userId: number): Promise<ChatHistoryResponse> {
  const rows = await chatRepo.recentMessages(deps.db, userId, HISTORY_PAGE);
  const usage = await getUsage(deps, userId);
  return {
    ...usage,
    started_at: await chatRepo.conversationStart(deps.db, userId),
    messages: rows.map((r) => {
      const state = replyState(r, deps.staleMs);
      return {
        id: r.id,
        role: r.role,
        text: r.content,
        created_at: r.created_at,
        ...(state === 'stopped' ? { stopped: true } : {}),
        ...(state === 'streaming' ? { streaming: true } : {}),
      };
    }),
  };
}

/**
 * New Topic: the user's replies stop (this process's at once, another's at its next save, which
 * finds the row gone), the messages go, and the conversation starts again now (jobs before it
 * leave it).
 */
export async function clearHistory(deps: ChatDeps, userId: number): Promise<void> {
  await deps.replies.stopAllOf(userId, 'New Topic');
  await deps.db.transaction().execute(async (trx) => {
    await chatRepo.clearMessages(trx, userId);
    await chatRepo.startConversation(trx, userId, nowIso());
  });
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
