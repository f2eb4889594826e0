import { lazy, memo, Suspense, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Person from '@mui/icons-material/Person';
import SmartToy from '@mui/icons-material/SmartToy';
import type { ConversationMessage, MessageType } from '../../../lib/conversation';
import { visuallyHidden } from '../../../components/ui/visually-hidden';
import { MessageActions } from './MessageActions';
import { WorkProgress } from './WorkProgress';

const Markdown = lazy(() => import('./Markdown').then((m) => ({ default: m.Markdown })));

const WHO: Record<MessageType, { label: string; icon: ReactNode }> = {
  user: { label: 'You', icon: <Person /> },
  ai: { label: 'Inkwell', icon: <SmartToy /> },
  system: { label: 'System', icon: <InfoOutlined /> },
  error: { label: 'Error', icon: <ErrorOutline /> },
};

const plain = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** One message: an icon by type, the text (Markdown for ai replies), actions under ai replies. */
export const MessageItem = memo(function MessageItem({
  message,
  actions,
}: {
  message: ConversationMessage;
  actions?: (message: ConversationMessage) => ReactNode;
}) {
  const { type, text, isLoading, streaming } = message;
  const who = WHO[type];
  const mine = type === 'user';
  const showMarkdown = type === 'ai' && !isLoading;
  return (
    <Box
      component="article"
      aria-busy={isLoading || streaming || undefined}
      sx={{ display: 'flex', gap: 1.5, py: 1, flexDirection: mine ? 'row-reverse' : 'row' }}
    >
      <Box
        aria-hidden
        sx={{ mt: 0.5, color: type === 'error' ? 'error.main' : 'text.secondary', flexShrink: 0 }}
      >
        {who.icon}
      </Box>
      <Paper
        variant={mine ? 'elevation' : 'outlined'}
        elevation={0}
        sx={{
          px: 2,
          py: 1,
          maxWidth: '100%',
          minWidth: 0,
          bgcolor: mine ? 'action.selected' : 'background.paper',
          borderColor: type === 'error' ? 'error.main' : undefined,
        }}
      >
        <Box component="span" sx={visuallyHidden}>
          {`${who.label}:`}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          {isLoading && <CircularProgress size={14} aria-hidden />}
          {showMarkdown ? (
            <Suspense fallback={<Box sx={plain}>{text}</Box>}>
              <Markdown text={text} />
            </Suspense>
          ) : (
            <Box sx={{ ...plain, fontStyle: type === 'system' ? 'italic' : undefined }}>{text}</Box>
          )}
        </Box>
        {message.work && (
          <WorkProgress
            progress={message.work.progress}
            onCancel={message.work.cancel}
            label={message.work.label ?? text}
            focus={message.work.focus}
          />
        )}
        {message.stopped && (
          <Box component="p" sx={{ m: 0, mt: 0.5, fontSize: '0.75rem', color: 'text.secondary' }}>
            Stopped.
          </Box>
        )}
        {message.extra}
        {type === 'ai' && !isLoading && (
          <MessageActions message={message} extra={actions?.(message)} />
        )}
      </Paper>
    </Box>
  );
});
