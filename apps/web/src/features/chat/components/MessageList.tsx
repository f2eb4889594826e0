import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { Virtuoso } from 'react-virtuoso';
import type { ConversationMessage } from '../../../lib/conversation';
import { useFollowConversation } from '../hooks/use-follow-conversation';
import { MessageItem } from './MessageItem';

/**
 * The conversation, virtualised (react-virtuoso, window scrolling) so a thousand messages stay
 * smooth. It keeps the newest message in view unless the reader scrolled up
 * (hooks/use-follow-conversation.ts): the page's end is followed, not Virtuoso's `followOutput`,
 * whose bottom (the window's) lies behind the input bar.
 */
export function MessageList({
  messages,
  actions,
}: {
  messages: ConversationMessage[];
  actions?: (message: ConversationMessage) => ReactNode;
}) {
  const busy = messages.some((m) => m.isLoading || m.streaming);
  useFollowConversation(messages);
  return (
    <Box role="log" aria-label="Conversation" aria-busy={busy}>
      <Virtuoso
        useWindowScroll
        data={messages}
        computeItemKey={(_i, m) => m.id}
        initialTopMostItemIndex={Math.max(0, messages.length - 1)}
        increaseViewportBy={400}
        itemContent={(_i, m) => <MessageItem message={m} actions={actions} />}
      />
    </Box>
  );
}
