import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { conversation, useReplying, wasStopped } from '../../../lib/conversation';
import { filesQuestion } from '../../../lib/files-question';
import { aiStatusQuery } from '../api/get-ai-status';
import { LOADING_TEXT } from '../chat-texts';

// Loaded on the first send: their zod schemas stay out of what `/` loads to render (issue 7).
async function loadChatApi() {
  const [ask, chat, files] = await Promise.all([
    import('../question-job'),
    import('../api/send-chat-message'),
    import('../files-question-job'),
  ]);
  return {
    runQuestion: ask.runQuestion,
    runFilesQuestion: files.runFilesQuestion,
    sendChatMessage: chat.sendChatMessage,
    stopReply: chat.stopChatReply,
  };
}

/**
 * Chat send (spec §4): the user message is appended, then an ai placeholder 'Loading...' that the
 * reply replaces token by token; on failure the placeholder is removed silently. In question mode
 * (askQuestions) the text is a question about the chosen file (question-job.ts); the mode stays
 * until the person leaves it (QuestionModeChip). With "Ask my files" on, it is a question across
 * the user's files (files-question-job).
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
    const target = conversation.getState().questionTarget;
    if (target) {
      // A question about a file is a job: its own 'Loading...' step, with progress and Cancel.
      try {
        const { runQuestion } = await loadChatApi();
        await runQuestion(target, text);
      } catch (err) {
        // Only the code failed to load (runQuestion posts its own failures).
        conversation.add({ type: 'error', text: `Error in askQuestions: ${String(err)}` });
      } finally {
        setSending(false);
      }
      return true;
    }
    const files = filesQuestion.getState();
    if (files.on) {
      try {
        const { runFilesQuestion } = await loadChatApi();
        await runFilesQuestion(text, files.picked);
      } catch (err) {
        conversation.add({ type: 'error', text: `Error in Ask my files: ${String(err)}` });
      } finally {
        setSending(false);
      }
      return true;
    }
    const placeholder = conversation.add({ type: 'ai', text: LOADING_TEXT, isLoading: true });
    try {
      const { sendChatMessage, stopReply } = await loadChatApi();
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
