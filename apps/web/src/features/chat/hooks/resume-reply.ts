import { conversation, wasStopped } from '../../../lib/conversation';
import { followChatReply, stopChatReply } from '../api/send-chat-message';

/**
 * A reply the server was still generating when the page loaded (a reload mid-reply, another
 * device): it streams on in its restored message from where the history left it, Stop stops it
 * on the server, and it ends as it ended there (complete, or stopped with what it had).
 */
export async function resumeReply(replyId: number, shown: string) {
  const messageId = `h${replyId}`;
  const signal = conversation.beginReply();
  conversation.setReplyStop(signal, () => void stopChatReply(replyId).catch(() => undefined));
  let streamed = '';
  try {
    const reply = await followChatReply(replyId, {
      signal,
      onToken: (token) => {
        streamed += token;
        // The first token is the whole text so far: it starts again from the stored text.
        conversation.update(messageId, { text: streamed, isLoading: false, streaming: true });
      },
    });
    const counter = { current: reply.current, max: reply.max };
    conversation.update(messageId, {
      text: reply.response,
      isLoading: false,
      streaming: false,
      counter,
      ...(reply.stopped ? { stopped: true } : {}),
    });
    conversation.setUsage(counter);
  } catch {
    // Not followed to its end here (New Topic, logout, a network cut): what is shown stays.
    if (!signal.aborted || wasStopped(signal)) {
      conversation.update(messageId, {
        text: streamed || shown,
        isLoading: false,
        streaming: false,
        stopped: true,
      });
    }
  } finally {
    conversation.endReply(signal);
  }
}
