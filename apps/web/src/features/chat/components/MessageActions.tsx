import { useEffect, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import { TooltipIconButton } from '../../../components/ui/TooltipIconButton';
import { visuallyHidden } from '../../../components/ui/visually-hidden';
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
      <TooltipIconButton
        title={copied ? 'Copied' : 'Copy'}
        label={copied ? 'Copied' : 'Copy message'}
        size="small"
        onClick={copy}
      >
        {copied ? <Check fontSize="small" /> : <ContentCopy fontSize="small" />}
      </TooltipIconButton>
      <TooltipIconButton
        title={speaking ? 'Stop reading' : 'Read aloud'}
        label="Read aloud"
        size="small"
        aria-pressed={speaking}
        onClick={toggle}
      >
        {speaking ? <StopCircle fontSize="small" /> : <VolumeUp fontSize="small" />}
      </TooltipIconButton>
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
