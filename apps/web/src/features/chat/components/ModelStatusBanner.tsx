import { lazy, Suspense } from 'react';
import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { MODEL_UNAVAILABLE_MESSAGE, type AiStatus } from '@inkwell/contract';

export const MODEL_STATUS_BANNER_ID = 'model-status';

const OperatorModelHint = lazy(() => import('./OperatorModelHint'));

/** What the banner says, and why Send is disabled, while the model is not ready. */
export function modelStatusText(status: AiStatus): string | null {
  switch (status.state) {
    case 'ready':
      return null;
    case 'downloading':
      return `Downloading the language model: ${status.progress ?? 0} %`;
    case 'loading':
      return 'Loading the model…';
    default:
      // Unavailable or unreachable: the server's words for the user (the operator has the reason).
      return status.reason ?? MODEL_UNAVAILABLE_MESSAGE;
  }
}

/** Above the chat input while the model is not ready: the download, the load, or that it is down. */
export function ModelStatusBanner({ status }: { status: AiStatus }) {
  const text = modelStatusText(status);
  if (!text) return null;
  const down = status.state === 'unavailable' || status.state === 'unreachable';
  return (
    <Alert
      id={MODEL_STATUS_BANNER_ID}
      severity={down ? 'warning' : 'info'}
      role="status"
      sx={{ mb: 1 }}
    >
      {text}
      {down && (
        <Suspense fallback={null}>
          <OperatorModelHint />
        </Suspense>
      )}
      {status.state === 'downloading' && (
        <LinearProgress
          variant="determinate"
          value={status.progress ?? 0}
          aria-label="Model download"
          sx={{ mt: 1 }}
        />
      )}
    </Alert>
  );
}
