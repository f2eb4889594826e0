import { useState } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { BANNER_OFFSET } from '../../../theme/theme';
import { useLatestAlert } from '../api/get-latest-alert';

/** The server's latest alert under the top bar (64 px from the top), until the user closes it. */
export function AlertBanner() {
  const { data } = useLatestAlert();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!data?.isVisible || !data.message) return null;
  const key = `${data.title ?? ''}|${data.message}`;
  if (dismissed === key) return null;
  return (
    <Box
      sx={{
        position: 'sticky',
        top: BANNER_OFFSET,
        zIndex: (t) => t.zIndex.appBar - 1,
        px: { xs: 1, sm: 2 },
        pt: 1,
      }}
    >
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
