import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import Stack from '@mui/material/Stack';
import { useRetryModel } from '../api/retry-model';

/**
 * "Retry now" for a model that failed (a download, an unreachable model server): the server
 * otherwise tries again by itself, with a growing wait between attempts.
 */
export function RetryModelButton() {
  const retry = useRetryModel();
  const outcome = retry.isError
    ? 'The retry could not be started.'
    : retry.data && !retry.data.retried
      ? 'Nothing is waiting to be retried: fix the setting named above and restart.'
      : retry.data
        ? 'Trying again now.'
        : '';
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 2 }}>
      <Button variant="outlined" onClick={() => retry.mutate()} disabled={retry.isPending}>
        Retry now
      </Button>
      <Typography role="status" variant="body2" color="text.secondary">
        {outcome}
      </Typography>
    </Stack>
  );
}
