import { useEffect, useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useNavigate } from 'react-router-dom';
import { TIMINGS_MS } from '@inkwell/contract';
import { PasswordField } from '../../../components/ui/PasswordField';
import { StatusText } from '../../../components/ui/StatusText';
import { ApiError } from '../../../lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { AUTH_MESSAGES, newPasswordError } from '../validate';

/** With the emailed token: a new password, then off to /login after 3 s. */
export function SetNewPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const reset = useResetPassword();
  const navigate = useNavigate();

  useEffect(() => {
    if (!reset.isSuccess) return;
    const timer = setTimeout(() => navigate('/login'), TIMINGS_MS.resetRedirect);
    return () => clearTimeout(timer);
  }, [reset.isSuccess, navigate]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = newPasswordError(password);
    setError(found);
    if (!found) reset.mutate({ token, password });
  }

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <PasswordField
        label="New password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={Boolean(error)}
        helperText={error}
      />
      <Button type="submit" variant="contained" disabled={reset.isPending || reset.isSuccess}>
        Reset Password
      </Button>
      {reset.isSuccess && <StatusText kind="success">{reset.data.message}</StatusText>}
      {reset.isError && (
        <StatusText kind="error">
          {(reset.error instanceof ApiError && reset.error.serverMessage) ||
            AUTH_MESSAGES.resetFailed}
        </StatusText>
      )}
    </Stack>
  );
}
