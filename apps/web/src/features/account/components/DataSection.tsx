import Button from '@mui/material/Button';
import Download from '@mui/icons-material/Download';
import type { Feedback } from '../../../components/ui/FeedbackSnackbar';
import { useDownloadUserData } from '../api/download-user-data';

export const DATA_MESSAGES = {
  success: 'Your data has been downloaded successfully.',
  failed: 'Error downloading data, please try again.',
} as const;

export function DataSection({ onFeedback }: { onFeedback: (f: Feedback) => void }) {
  const download = useDownloadUserData();
  return (
    <Button
      variant="outlined"
      startIcon={<Download />}
      disabled={download.isPending}
      onClick={() =>
        download.mutate(undefined, {
          onSuccess: () => onFeedback({ message: DATA_MESSAGES.success, severity: 'success' }),
          onError: () => onFeedback({ message: DATA_MESSAGES.failed, severity: 'error' }),
        })
      }
    >
      Download Your Data
    </Button>
  );
}
