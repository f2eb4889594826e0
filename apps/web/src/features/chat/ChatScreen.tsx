import { lazy, Suspense, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { visuallyHidden } from '../../components/ui/visually-hidden';
import { useConversation, type ConversationMessage } from '../../lib/conversation';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSession } from '../../lib/session';
import { WelcomeScreen } from './components/WelcomeScreen';

// The list (virtualised, with the message actions) loads with the first message: the empty
// screen `/` first renders shows the welcome alone.
const MessageList = lazy(() =>
  import('./components/MessageList').then((m) => ({ default: m.MessageList })),
);

/**
 * The chat home at `/`: the welcome while there are no messages, otherwise the conversation
 * (max 800 px wide). `messageActions` lets the routes add actions (download) under ai replies.
 */
export function ChatScreen({
  messageActions,
}: {
  messageActions?: (message: ConversationMessage) => ReactNode;
}) {
  useDocumentTitle('');
  const { firstName, isAuthenticated } = useSession();
  const { messages } = useConversation();
  return (
    <Box
      sx={{ flexGrow: 1, display: 'flex', justifyContent: 'center', px: { xs: 1.5, sm: 3 }, py: 3 }}
    >
      <Box sx={{ width: '100%', maxWidth: 800 }}>
        {messages.length === 0 ? (
          <WelcomeScreen firstName={isAuthenticated ? firstName : ''} />
        ) : (
          <>
            <Box component="h1" sx={visuallyHidden}>
              Chat
            </Box>
            <Suspense fallback={null}>
              <MessageList messages={messages} actions={messageActions} />
            </Suspense>
          </>
        )}
      </Box>
    </Box>
  );
}
