import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';

export type UploadStatus =
  | { state: 'uploading'; fileName: string; percent: number }
  | { state: 'done'; fileName: string; message: string }
  | { state: 'failed'; fileName: string; message: string };

/**
 * 'File Upload Status', in the drawer under Upload File: each file of the last upload with its
 * progress, then the server's message or the error. Not a dialog: several files go at once, and
 * a success needs no click to go on (issue 39).
 */
export function UploadStatusList({
  statuses,
  onDismiss,
}: {
  statuses: UploadStatus[];
  /** Removes the status of the file at this index (its alert's close button). */
  onDismiss: (index: number) => void;
}) {
  if (statuses.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label="File Upload Status"
      sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'grid', gap: 0.5 }}
    >
      {statuses.map((status, i) => (
        <Box component="li" key={`${i}-${status.fileName}`}>
          {status.state === 'uploading' ? (
            <Box sx={{ py: 0.5 }}>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {status.fileName}
              </Typography>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <LinearProgress
                  variant="determinate"
                  value={status.percent}
                  aria-label={`Upload progress of ${status.fileName}`}
                  sx={{ flexGrow: 1 }}
                />
                <Typography variant="body2">{`${status.percent}%`}</Typography>
              </Box>
            </Box>
          ) : (
            <Alert
              severity={status.state === 'done' ? 'success' : 'error'}
              onClose={() => onDismiss(i)}
              sx={{ py: 0, overflowWrap: 'anywhere' }}
            >
              <strong>{status.fileName}</strong>: {status.message}
            </Alert>
          )}
        </Box>
      ))}
    </Box>
  );
}
