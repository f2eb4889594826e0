import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ALERT_MESSAGE_MAX,
  ALERT_SEVERITIES,
  ALERT_TITLE_MAX,
  type AlertSeverity,
  type LatestAlertResponse,
} from '@inkwell/contract';
import type { Feedback } from '../../../components/ui/FeedbackSnackbar';
import { ApiError } from '../../../lib/api-client';
import { useSetAlert } from '../api/set-alert';

/** Sets the banner every visitor sees under the top bar (what `npm run alert` does), or clears it. */
export function AlertForm({
  current,
  onFeedback,
}: {
  current: LatestAlertResponse;
  onFeedback: (f: Feedback) => void;
}) {
  const [message, setMessage] = useState('');
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<AlertSeverity>('info');
  const [error, setError] = useState<string>();
  const change = useSetAlert();
  const failed = (err: Error) =>
    onFeedback({
      message: err instanceof ApiError ? (err.serverMessage ?? err.message) : err.message,
      severity: 'error',
    });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!message.trim()) return setError('Message is required');
    setError(undefined);
    change.mutate(
      { message, severity, title: title.trim() || undefined },
      {
        onSuccess: () => {
          setMessage('');
          setTitle('');
          onFeedback({ message: 'The banner is shown to every visitor.', severity: 'success' });
        },
        onError: failed,
      },
    );
  }

  return (
    <Stack spacing={2}>
      {current.isVisible ? (
        <Alert severity={current.severity} variant="outlined">
          {current.title && <strong>{current.title}: </strong>}
          {current.message}
        </Alert>
      ) : (
        <Typography color="text.secondary">No banner is shown.</Typography>
      )}
      <Button
        variant="outlined"
        sx={{ alignSelf: 'flex-start' }}
        disabled={!current.isVisible || change.isPending}
        onClick={() =>
          change.mutate(null, {
            onSuccess: () => onFeedback({ message: 'The banner is cleared.', severity: 'success' }),
            onError: failed,
          })
        }
      >
        Clear banner
      </Button>
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            select
            label="Severity"
            value={severity}
            onChange={(e) => setSeverity(e.target.value as AlertSeverity)}
            size="small"
            sx={{ minWidth: 140 }}
          >
            {ALERT_SEVERITIES.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Title (optional)"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            slotProps={{ htmlInput: { maxLength: ALERT_TITLE_MAX } }}
            size="small"
            fullWidth
          />
        </Stack>
        <TextField
          label="Message"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          error={Boolean(error)}
          helperText={error}
          slotProps={{ htmlInput: { maxLength: ALERT_MESSAGE_MAX } }}
          required
          multiline
          minRows={2}
          size="small"
        />
        <Button
          type="submit"
          variant="contained"
          sx={{ alignSelf: 'flex-start' }}
          disabled={change.isPending}
        >
          Show banner
        </Button>
      </Stack>
    </Stack>
  );
}
