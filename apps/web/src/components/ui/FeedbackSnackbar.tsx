import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { TIMINGS_MS } from '@inkwell/contract';

export interface Feedback {
  message: string;
  severity: 'success' | 'error' | 'info' | 'warning';
}

/** A snackbar message that hides itself after 6 seconds (spec §8). */
export function FeedbackSnackbar({
  feedback,
  onClose,
}: {
  feedback: Feedback | null;
  onClose: () => void;
}) {
  return (
    <Snackbar
      open={Boolean(feedback)}
      autoHideDuration={TIMINGS_MS.snackbar}
      onClose={(_e, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {feedback ? (
        <Alert
          severity={feedback.severity}
          variant="filled"
          onClose={onClose}
          sx={{ width: '100%' }}
        >
          {feedback.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
