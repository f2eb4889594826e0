import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { AdminUser } from '@inkwell/contract';
import type { Feedback } from '../../../components/ui/FeedbackSnackbar';
import { visuallyHidden } from '../../../components/ui/visually-hidden';
import { ApiError } from '../../../lib/api-client';
import { useDeleteUser } from '../api/delete-user';
import { useAdminUsers } from '../api/get-admin-users';
import { useSetUserDisabled } from '../api/set-user-disabled';
import { formatBytes, formatDateTime } from '../format';
import { DeleteUserDialog } from './DeleteUserDialog';
import { UserCards } from './UserCards';
import { UserRowActions } from './UserRowActions';

const COLUMNS = ['User', 'Role', 'Created', 'Last seen', 'Files', 'Storage', 'Prompts today'];

/** Every account with its activity; disable, enable or delete any but your own. */
export function UsersTable({
  currentUserEmail,
  onFeedback,
}: {
  currentUserEmail?: string;
  onFeedback: (f: Feedback) => void;
}) {
  const { data: users, isPending, isError } = useAdminUsers();
  const toggle = useSetUserDisabled();
  const remove = useDeleteUser();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  // Phones get cards: a table of nine columns cannot fit 390 px.
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
  const failed = (err: Error) =>
    onFeedback({
      message: err instanceof ApiError ? (err.serverMessage ?? err.message) : err.message,
      severity: 'error',
    });

  const actions = (u: AdminUser) => (
    <UserRowActions
      user={u}
      self={u.email === currentUserEmail}
      busy={toggle.isPending}
      onToggle={() => toggle.mutate({ id: u.id, disabled: !u.disabled }, { onError: failed })}
      onDelete={() => setDeleting(u)}
    />
  );

  if (isPending) return <CircularProgress aria-label="Loading users" />;
  if (isError) return <Alert severity="error">Error loading the users, please try again.</Alert>;
  return (
    <>
      {narrow ? (
        <UserCards users={users} renderActions={actions} />
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Users">
            <TableHead>
              <TableRow>
                {[...COLUMNS, 'Status'].map((c) => (
                  <TableCell key={c}>{c}</TableCell>
                ))}
                <TableCell>
                  <Box component="span" sx={visuallyHidden}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((u) => {
                return (
                  <TableRow key={u.id}>
                    <TableCell sx={{ overflowWrap: 'anywhere', minWidth: 160 }}>
                      <Typography variant="body2">
                        {`${u.first_name} ${u.last_name}`.trim()}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {u.email}
                      </Typography>
                    </TableCell>
                    <TableCell>{u.role}</TableCell>
                    <TableCell>{formatDateTime(u.created_at)}</TableCell>
                    <TableCell>{formatDateTime(u.last_seen_at)}</TableCell>
                    <TableCell align="right">{u.files}</TableCell>
                    <TableCell align="right">{formatBytes(u.storage_bytes)}</TableCell>
                    <TableCell align="right">{u.prompts_today}</TableCell>
                    <TableCell>{u.disabled ? 'Disabled' : 'Active'}</TableCell>
                    <TableCell>{actions(u)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <DeleteUserDialog
        email={deleting?.email ?? null}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: (answer) => {
              setDeleting(null);
              onFeedback({ message: answer.message, severity: 'success' });
            },
            onError: failed,
          })
        }
      />
    </>
  );
}
