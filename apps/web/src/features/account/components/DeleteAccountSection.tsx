import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForever from '@mui/icons-material/DeleteForever';
import { withBase } from '../../../lib/base-path';
import { session } from '../../../lib/session';
import { useDeleteAccount } from '../api/delete-account';

export const DELETE_FAILED = 'Error deleting account, please try again.';

/** Navigation after deletion: a full page load, so no state of the deleted account survives. */
export const goTo = { register: () => window.location.assign(withBase('register')) };

export function DeleteAccountSection() {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteAccount();

  function confirm() {
    remove.mutate(undefined, {
      onSuccess: () => {
        session.clearAll();
        goTo.register();
      },
    });
  }

  return (
    <>
      <Button
        color="error"
        variant="outlined"
        startIcon={<DeleteForever />}
        onClick={() => setConfirming(true)}
      >
        Delete your account
      </Button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        aria-labelledby="delete-account-title"
      >
        <DialogTitle id="delete-account-title">Delete your account?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            This permanently deletes your account, your files and your chat history. It cannot be
            undone.
          </DialogContentText>
          {remove.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {DELETE_FAILED}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={remove.isPending}>
            Delete account
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
