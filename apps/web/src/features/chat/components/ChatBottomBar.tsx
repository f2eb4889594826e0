import { lazy, Suspense } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ChatInputBarProps } from './ChatInputBar';
import { NewMessagesButton } from './NewMessagesButton';
import { QuestionModeChip } from './QuestionModeChip';

export const FOOTER_NOTE = 'AI responses may display inaccurate info.';

// The input bar loads with the chat rather than in the shell's first chunk.
const ChatInputBar = lazy(() =>
  import('./ChatInputBar').then((m) => ({ default: m.ChatInputBar })),
);

/** The bottom area of the chat screen (rendered by the layout on `/` only): input bar and footer note. */
export function ChatBottomBar(props: ChatInputBarProps) {
  return (
    <Box sx={{ px: { xs: 1, sm: 2 }, pt: 1, pb: 0.5, display: 'flex', justifyContent: 'center' }}>
      <Box sx={{ width: '100%', maxWidth: 800, position: 'relative' }}>
        <NewMessagesButton />
        <QuestionModeChip />
        <Suspense fallback={<Box sx={{ minHeight: 56 }} />}>
          <ChatInputBar {...props} />
        </Suspense>
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          sx={{ textAlign: 'center', mt: 0.5 }}
        >
          {FOOTER_NOTE}
        </Typography>
      </Box>
    </Box>
  );
}
