import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** 'Confirm Deletion' of one file (`fileName`) or, without it, of all files. */
export function ConfirmDeleteDialog({
  fileName,
  busy,
  onConfirm,
  onClose,
}: {
  fileName?: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby="confirm-delete-title"
      aria-describedby="confirm-delete-text"
    >
      <DialogTitle id="confirm-delete-title">Confirm Deletion</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-delete-text">
          {fileName
            ? `Delete ${fileName}? This cannot be undone.`
            : 'Delete all your files? This cannot be undone.'}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={onConfirm}>
          {fileName ? 'Delete' : 'Delete All'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
