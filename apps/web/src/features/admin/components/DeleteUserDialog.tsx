import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** Asks before an account and everything it owns are deleted. */
export function DeleteUserDialog({
  email,
  pending,
  onCancel,
  onConfirm,
}: {
  email: string | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={email !== null} onClose={onCancel} aria-labelledby="delete-user-title">
      <DialogTitle id="delete-user-title">Delete this account?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          This permanently deletes the account of {email}, its files and its chat history. It cannot
          be undone.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={pending}>
          Delete account
        </Button>
      </DialogActions>
    </Dialog>
  );
}
