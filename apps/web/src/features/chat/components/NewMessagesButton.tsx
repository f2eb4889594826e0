import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import { useConversation } from '../../../lib/conversation';
import { follow, useFollow } from '../follow';

/**
 * Shown above the input bar while the person reads further up: it takes them to the newest
 * message (and the chat follows again). It says 'New messages' when something arrived meanwhile.
 */
export function NewMessagesButton() {
  const { following, unseen } = useFollow();
  const { messages } = useConversation();
  if (following || messages.length === 0) return null;
  return (
    <Box
      sx={{
        position: 'absolute',
        bottom: '100%',
        left: 0,
        right: 0,
        display: 'flex',
        justifyContent: 'center',
        pb: 1,
        pointerEvents: 'none',
      }}
    >
      <Button
        variant="contained"
        size="small"
        startIcon={<ArrowDownward />}
        onClick={() => follow.goToNewest()}
        sx={{ pointerEvents: 'auto', borderRadius: 4, boxShadow: 3 }}
      >
        {unseen ? 'New messages' : 'Newest message'}
      </Button>
    </Box>
  );
}
