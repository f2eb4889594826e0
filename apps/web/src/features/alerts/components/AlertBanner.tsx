import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { useLatestAlert } from '../api/get-latest-alert';

/**
 * The server's latest alert right under the top bar (64 px from the top, the Toolbar above it), until the user closes it. It
 * sits in the page's flow: it pushes the conversation down rather than covering its top.
 */
export function AlertBanner() {
  const { data } = useLatestAlert();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!data?.isVisible || !data.message) return null;
  const key = `${data.title ?? ''}|${data.message}`;
  if (dismissed === key) return null;
  return (
    <Box sx={{ px: { xs: 1, sm: 2 }, pt: 1 }}>
      <Alert
        severity={data.severity ?? 'info'}
        variant="filled"
        onClose={() => setDismissed(key)}
        slotProps={{ closeButton: { 'aria-label': 'Close alert' } as object }}
      >
        {data.title && <AlertTitle sx={{ fontWeight: 700 }}>{data.title}</AlertTitle>}
        {data.message}
      </Alert>
    </Box>
  );
}
