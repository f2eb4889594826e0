import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Check from '@mui/icons-material/Check';
import ContentCopy from '@mui/icons-material/ContentCopy';
import StopCircle from '@mui/icons-material/StopCircle';
import VolumeUp from '@mui/icons-material/VolumeUp';
import { TIMINGS_MS } from '@inkwell/contract';
import type { ConversationMessage } from '../../../lib/conversation';
import { useReadAloud } from '../hooks/use-read-aloud';

/** Under an ai message: copy (check icon for 2 s), read aloud, extra actions, the prompt counter. */
export function MessageActions({
  message,
  extra,
}: {
  message: ConversationMessage;
  extra?: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const { speaking, toggle } = useReadAloud(message.text);

  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), TIMINGS_MS.copyConfirmation);
    return () => clearTimeout(t);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(message.text);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions): nothing to confirm.
    }
  }

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 0.5 }}>
      <Tooltip slotProps={{ popper: { disablePortal: true } }} title={copied ? 'Copied' : 'Copy'}>
        <IconButton size="small" aria-label={copied ? 'Copied' : 'Copy message'} onClick={copy}>
          {copied ? <Check fontSize="small" /> : <ContentCopy fontSize="small" />}
        </IconButton>
      </Tooltip>
      <Tooltip
        slotProps={{ popper: { disablePortal: true } }}
        title={speaking ? 'Stop reading' : 'Read aloud'}
      >
        <IconButton size="small" aria-label="Read aloud" aria-pressed={speaking} onClick={toggle}>
          {speaking ? <StopCircle fontSize="small" /> : <VolumeUp fontSize="small" />}
        </IconButton>
      </Tooltip>
      {extra}
      {message.counter && (
        <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
          <Box component="span" sx={visuallyHidden}>
            Prompts used today:{' '}
          </Box>
          {`${message.counter.current} of ${message.counter.max}`}
        </Typography>
      )}
    </Box>
  );
}

export const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
