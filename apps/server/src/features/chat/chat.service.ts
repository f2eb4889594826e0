import type { ChatHistoryResponse, ChatResponse, PromptUsage } from '@inkwell/contract';
import { ERROR_MESSAGES } from '@inkwell/contract';
import type { Db, Dialect } from '../../db/database';
import { withUnsyncedCommit } from '../../db/unsynced-commit';
import { tooManyRequests } from '../../lib/http-error';
import { utcDay } from '../../lib/time';
import { assertModelUsable, type LanguageModel } from '../ai/language-model';
import { buildPrompt, replyTokensFor } from './chat-prompt';
import { chatRepo } from './chat.repo';

/** The chat's logic: counter, history, prompt building, generation. No HTTP here. */
export interface ChatDeps {
  db: Db;
  dialect: Dialect;
  ai: LanguageModel;
  /** Successful replies allowed per user per UTC day (PROMPT_LIMIT). */
  promptLimit: number;
}

/** History rows read to build a prompt; the context budget keeps only what fits. */
const HISTORY_WINDOW = 200;
/** Most messages GET /api/chat/history returns (the newest). */
const HISTORY_PAGE = 500;

export interface ChatRun {
  /** Generates the reply, calling onToken per piece; stores the exchange on success. */
  run(opts: {
    signal?: AbortSignal;
    onToken?: (text: string) => void | Promise<void>;
  }): Promise<ChatResponse>;
  /** Gives the reserved prompt back when the run never happens. */
  cancel(): Promise<void>;
}

/**
 * Checks everything that must fail before a reply starts (model available, daily cap) and
 * reserves one prompt of the allowance. The caller then runs it, or cancels it.
 */
export async function startChat(deps: ChatDeps, userId: number, text: string): Promise<ChatRun> {
  // A model still loading is waited for by the call itself (AI_LOAD_WAIT_MS).
  assertModelUsable(deps.ai.status());
  const day = utcDay();
  // The counter's commit skips the fsync: it is on the way to the first token, and a power cut
  // that rolled it back would only give a prompt back.
  const current = await withUnsyncedCommit(deps.db, deps.dialect, (db) =>
    chatRepo.reservePrompt(db, userId, day, deps.promptLimit),
  );
  if (current === null) throw tooManyRequests(ERROR_MESSAGES.rateLimited, secondsToUtcMidnight());

  let settled = false;
  const release = async () => {
    if (settled) return;
    settled = true;
    await withUnsyncedCommit(deps.db, deps.dialect, (db) =>
      chatRepo.releasePrompt(db, userId, day),
    );
  };

  return {
    cancel: release,
    async run({ signal, onToken }) {
      try {
        const history = await chatRepo.recentMessages(deps.db, userId, HISTORY_WINDOW);
        const contextTokens = deps.ai.contextTokens();
        const replyTokens = replyTokensFor(contextTokens);
        const turns = buildPrompt(history, text, {
          contextTokens,
          replyTokens,
          countTokens: (t) => deps.ai.countTokens(t),
        });
        let response = '';
        const opts = {
          signal,
          maxTokens: replyTokens,
          priority: 'interactive',
          owner: userId,
        } as const;
        for await (const piece of deps.ai.stream(turns, opts)) {
          response += piece;
          if (onToken) await onToken(piece);
        }
        signal?.throwIfAborted();
        await chatRepo.addExchange(deps.db, userId, text, response);
        settled = true;
        return { response, current, max: deps.promptLimit };
      } catch (err) {
        await release().catch(() => {});
        throw err;
      }
    },
  };
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
    messages: rows.map((r) => ({
      id: r.id,
      role: r.role,
      text: r.content,
      created_at: r.created_at,
    })),
  };
}

export async function clearHistory(deps: ChatDeps, userId: number): Promise<void> {
  await chatRepo.clearMessages(deps.db, userId);
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
