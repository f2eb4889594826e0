import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { conversation, useReplying, wasStopped } from '../../../lib/conversation';
import { aiStatusQuery } from '../api/get-ai-status';

// Loaded on the first send: their zod schemas stay out of what `/` loads to render (issue 7).
async function loadChatApi() {
  const [ask, chat] = await Promise.all([
    import('../api/ask-question'),
    import('../api/send-chat-message'),
  ]);
  return {
    askQuestion: ask.askQuestion,
    sendChatMessage: chat.sendChatMessage,
    stopReply: chat.stopChatReply,
  };
}

export const LOADING_TEXT = 'Loading...';
export const NO_RESPONSE = 'No detailed response available.';

/**
 * Chat send (spec §4): the user message is appended, then an ai placeholder 'Loading...' that the
 * reply replaces token by token; on failure the placeholder is removed silently. In question mode
 * (askQuestions) the text is a question about the chosen file, after which the mode ends.
 */
export function useSendMessage() {
  const [sending, setSending] = useState(false);
  /** A chat reply is on its way (or followed after a reload): Stop replaces Send. */
  const replying = useReplying();
  const queryClient = useQueryClient();

  async function send(raw: string): Promise<boolean> {
    const text = raw.trim();
    if (!text || sending) return false;
    setSending(true);
    conversation.add({ type: 'user', text });
    const placeholder = conversation.add({ type: 'ai', text: LOADING_TEXT, isLoading: true });
    const target = conversation.getState().questionTarget;
    if (target) conversation.setQuestionTarget(null);
    try {
      const { askQuestion, sendChatMessage, stopReply } = await loadChatApi();
      if (target) {
        const result = await askQuestion(target, text);
        if ('error' in result) {
          conversation.remove(placeholder);
          conversation.add({ type: 'error', text: `Error in askQuestions: ${result.error}` });
        } else {
          conversation.update(placeholder, {
            text: result.response.trim() ? result.response : NO_RESPONSE,
            isLoading: false,
          });
        }
        return true;
      }
      const signal = conversation.beginReply();
      let streamed = '';
      const reply = await sendChatMessage(text, {
        signal,
        onReplyId: (id) => conversation.setReplyStop(signal, () => void stopReply(id)),
        onToken: (token) => {
          streamed += token;
          conversation.update(placeholder, { text: streamed, isLoading: false, streaming: true });
        },
      })
        .catch((err: unknown) => {
          // What has arrived stays, marked stopped: the server keeps it so (issue 26). Stop
          // before the reply's id came ends listening here; the server stops it on its side
          // only through its id, so the reply goes on there and comes back on the next load.
          if (streamed && (wasStopped(signal) || !signal.aborted)) {
            conversation.update(placeholder, { streaming: false, stopped: true });
            return null;
          }
          throw err;
        })
        .finally(() => conversation.endReply(signal));
      if (!reply) return true;
      const counter = { current: reply.current, max: reply.max };
      conversation.update(placeholder, {
        text: reply.response,
        isLoading: false,
        streaming: false,
        counter,
        ...(reply.stopped ? { stopped: true } : {}),
      });
      conversation.setUsage(counter);
      return true;
    } catch (err) {
      // Spec §8 removes the placeholder silently; issue 28 wants the reason said (an unreachable
      // model answers at once), so the server's message replaces it when there is one.
      conversation.remove(placeholder);
      const failure = err as { serverMessage?: string; status?: number | null } | undefined;
      if (failure?.serverMessage) conversation.add({ type: 'error', text: failure.serverMessage });
      // The model may have just become unavailable: the banner says so without waiting a minute.
      if (failure?.status === 503) void queryClient.invalidateQueries(aiStatusQuery);
      return true;
    } finally {
      setSending(false);
    }
  }

  return { send, sending, replying, stop: () => conversation.stopReply() };
}
