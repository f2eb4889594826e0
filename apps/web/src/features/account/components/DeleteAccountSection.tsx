import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteForever from '@mui/icons-material/DeleteForever';
import { PasswordField } from '../../../components/ui/PasswordField';
import { ApiError } from '../../../lib/api-client';
import { withBase } from '../../../lib/base-path';
import { session } from '../../../lib/session';
import { useDeleteAccount } from '../api/delete-account';

export const DELETE_FAILED = 'Error deleting account, please try again.';

/** Query of /register that says the deletion is done (browser storage is gone by then). */
export const DELETED_QUERY = 'account=deleted';

/** Navigation after deletion: a full page load, so no state of the deleted account survives. */
export const goTo = {
  register: () => window.location.assign(withBase(`register?${DELETED_QUERY}`)),
};

export function DeleteAccountSection() {
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  // A wrong password is said as the server says it; anything else is the spec's text.
  const failure =
    remove.error instanceof ApiError && remove.error.status === 400 && remove.error.serverMessage
      ? remove.error.serverMessage
      : DELETE_FAILED;

  function close() {
    setConfirming(false);
    setPassword('');
    remove.reset();
  }

  function confirm() {
    remove.mutate(
      { current_password: password },
      {
        onSuccess: () => {
          session.clearAll();
          goTo.register();
        },
      },
    );
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
      <Dialog open={confirming} onClose={close} aria-labelledby="delete-account-title">
        <DialogTitle id="delete-account-title">Delete your account?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            This permanently deletes your account, your files and your chat history. It cannot be
            undone. Enter your password to confirm.
          </DialogContentText>
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            sx={{ mt: 2 }}
            fullWidth
          />
          {remove.isError && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failure}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button
            color="error"
            variant="contained"
            onClick={confirm}
            disabled={remove.isPending || !password}
          >
            Delete account
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
