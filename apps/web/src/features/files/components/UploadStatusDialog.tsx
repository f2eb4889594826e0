import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

export type UploadStatus =
  | { state: 'uploading'; fileName: string; percent: number }
  | { state: 'done'; fileName: string; message: string }
  | { state: 'failed'; fileName: string; message: string };

/** 'File Upload Status': progress while uploading, then the server's message or the error. */
export function UploadStatusDialog({
  status,
  onClose,
}: {
  status: UploadStatus;
  onClose: () => void;
}) {
  const uploading = status.state === 'uploading';
  return (
    <Dialog
      open
      onClose={uploading ? undefined : onClose}
      aria-labelledby="upload-status-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="upload-status-title">File Upload Status</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere', mb: 1 }}>
          {status.fileName}
        </Typography>
        {uploading ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <LinearProgress
              variant="determinate"
              value={status.percent}
              aria-label="Upload progress"
              sx={{ flexGrow: 1 }}
            />
            <Typography variant="body2">{`${status.percent}%`}</Typography>
          </Box>
        ) : (
          <Alert severity={status.state === 'done' ? 'success' : 'error'}>{status.message}</Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={uploading}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
