import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@inkwell/contract';

/** Disable/Enable and Delete for one account; the operator's own shows "You". */
export function UserRowActions({
  user,
  self,
  busy,
  onToggle,
  onDelete,
}: {
  user: AdminUser;
  self: boolean;
  busy: boolean;
  onToggle: () => void;
  onDelete: () => void;
}) {
  if (self) {
    return (
      <Typography variant="body2" color="text.secondary">
        You
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={1}>
      <Button
        size="small"
        variant="outlined"
        aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.email}`}
        disabled={busy}
        onClick={onToggle}
      >
        {user.disabled ? 'Enable' : 'Disable'}
      </Button>
      <Button size="small" color="error" aria-label={`Delete ${user.email}`} onClick={onDelete}>
        Delete
      </Button>
    </Stack>
  );
}
