import { useEffect, useRef } from 'react';
import type { ChatMessage } from '@inkwell/contract';
import { conversation, type ConversationMessage } from '../../../lib/conversation';
import { reportError } from '../../../lib/api-client';
import { forgetAllJobs } from '../../../lib/remembered-jobs';

// Loaded on use: the history's zod schema must stay out of the shell's first chunk.
const getChatHistory = () => import('../api/get-chat-history').then((m) => m.getChatHistory());
const clearHistories = () => import('../api/clear-histories').then((m) => m.clearHistories());
const resumeReply = (id: number, text: string) =>
  import('./resume-reply').then((m) => m.resumeReply(id, text));

/**
 * Mounted once by the routes: restores the stored conversation when signed in, empties it on
 * logout, and runs New Topic (clears the server's histories and the screen) when the signal changes.
 * `onRestored` (stable) runs once the history is in place (or could not be read): long work
 * started before a reload comes back after it.
 */
export function useConversationLifecycle({
  isAuthenticated,
  newTopicSignal,
  onRestored,
}: {
  isAuthenticated: boolean;
  newTopicSignal: number;
  onRestored?: () => void;
}) {
  const lastSignal = useRef(newTopicSignal);

  useEffect(() => {
    if (!isAuthenticated) {
      conversation.reset();
      conversation.setUsage(null);
      forgetAllJobs();
      return;
    }
    let cancelled = false;
    getChatHistory()
      .then((history) => {
        const usage = { current: history.current, max: history.max };
        conversation.setUsage(usage);
        // Something typed meanwhile wins over the restored history.
        if (cancelled || conversation.getState().messages.length > 0) return;
        conversation.replaceAll(withCounter(history.messages.map(toMessage), usage));
        // A reply still being generated (a reload mid-reply, another device) streams on here.
        const streaming = history.messages.findLast((m) => m.streaming);
        if (streaming) void resumeReply(streaming.id, streaming.text);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!cancelled) onRestored?.();
      });
    return () => {
      cancelled = true;
    };
  }, [isAuthenticated, onRestored]);

  useEffect(() => {
    if (newTopicSignal === lastSignal.current) return;
    lastSignal.current = newTopicSignal;
    conversation.reset();
    if (isAuthenticated) {
      clearHistories().catch((err: Error) => reportError(`New topic: ${err.message}`));
    }
  }, [newTopicSignal, isAuthenticated]);
}

function toMessage(m: ChatMessage): ConversationMessage {
  return {
    id: `h${m.id}`,
    type: m.role === 'user' ? 'user' : 'ai',
    text: m.text,
    ...(m.stopped ? { stopped: true } : {}),
    ...(m.streaming ? { streaming: true, isLoading: !m.text } : {}),
  };
}

/**
 * The prompt counter on restored replies (spec §1: each ai reply carries `n of max`). The history
 * has only today's count, not the count after each old reply, so it goes on the newest reply alone:
 * the count after that reply is the current one. Older replies show none rather than a wrong one.
 */
function withCounter(
  messages: ConversationMessage[],
  usage: { current: number; max: number },
): ConversationMessage[] {
  const newest = messages.findLastIndex((m) => m.type === 'ai');
  return messages.map((m, i) => (i === newest ? { ...m, counter: usage } : m));
}
