import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { Link as RouterLink } from 'react-router-dom';
import { StatusText } from '../../../components/ui/StatusText';
import { ApiError } from '../../../lib/api-client';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { AUTH_MESSAGES, emailError } from '../validate';

export function RequestResetForm() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const request = useRequestPasswordReset();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = emailError(email);
    setError(found);
    if (!found) request.mutate({ email });
  }

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={Boolean(error)}
        helperText={error}
      />
      <Button type="submit" variant="contained" disabled={request.isPending}>
        Request Reset Link
      </Button>
      {request.isSuccess && <StatusText kind="success">{request.data.message}</StatusText>}
      {request.isError && (
        <StatusText kind="error">
          {(request.error instanceof ApiError && request.error.serverMessage) ||
            AUTH_MESSAGES.resetRequestFailed}
        </StatusText>
      )}
      <Link component={RouterLink} to="/login">
        Back to sign in
      </Link>
    </Stack>
  );
}
