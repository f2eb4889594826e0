import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { InviteResponse } from '@inkwell/contract';
import { ApiError } from '../../../lib/api-client';
import { useSendInvitation } from '../api/send-invitation';

/** Mails a single-use sign-up link, and shows it for handing over another way. */
export function InviteForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState<InviteResponse>();
  const invite = useSendInvitation();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSent(undefined);
    if (!email.trim()) return setError('Email is required');
    setError(undefined);
    invite.mutate(
      { email: email.trim() },
      {
        onSuccess: (answer) => {
          setSent(answer);
          setEmail('');
        },
        onError: (err) =>
          setError(
            err instanceof ApiError ? (err.serverMessage ?? err.message) : 'Invitation failed',
          ),
      },
    );
  }

  return (
    <Stack spacing={2}>
      <Stack
        component="form"
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        onSubmit={onSubmit}
        noValidate
        sx={{ alignItems: { sm: 'flex-start' } }}
      >
        <TextField
          label="Email to invite"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(error)}
          helperText={error}
          size="small"
          fullWidth
        />
        <Button
          type="submit"
          variant="contained"
          disabled={invite.isPending}
          sx={{ flexShrink: 0 }}
        >
          Send invitation
        </Button>
      </Stack>
      {sent && (
        <Alert severity="success">
          {sent.message} The link works once and expires in 7 days:
          <TextField
            label="Invitation link"
            value={sent.link}
            slotProps={{ htmlInput: { readOnly: true } }}
            onFocus={(e) => e.target.select()}
            size="small"
            fullWidth
            sx={{ mt: 1 }}
          />
        </Alert>
      )}
    </Stack>
  );
}
