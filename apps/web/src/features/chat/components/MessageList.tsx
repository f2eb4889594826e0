import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { Virtuoso } from 'react-virtuoso';
import type { ConversationMessage } from '../../../lib/conversation';
import { MessageItem } from './MessageItem';

/**
 * The conversation, virtualised (react-virtuoso, window scrolling) so a thousand messages stay
 * smooth; it follows new output while the reader is at the bottom.
 */
export function MessageList({
  messages,
  actions,
}: {
  messages: ConversationMessage[];
  actions?: (message: ConversationMessage) => ReactNode;
}) {
  const busy = messages.some((m) => m.isLoading || m.streaming);
  return (
    <Box role="log" aria-label="Conversation" aria-busy={busy}>
      <Virtuoso
        useWindowScroll
        data={messages}
        computeItemKey={(_i, m) => m.id}
        followOutput={(atBottom) => (atBottom ? 'smooth' : false)}
        initialTopMostItemIndex={Math.max(0, messages.length - 1)}
        increaseViewportBy={400}
        itemContent={(_i, m) => <MessageItem message={m} actions={actions} />}
      />
    </Box>
  );
}
