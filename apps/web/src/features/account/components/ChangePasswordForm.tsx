import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { passwordSchema } from '@inkwell/contract';
import { ApiError } from '../../../lib/api-client';
import { PasswordField } from '../../../components/ui/PasswordField';
import { useChangePassword } from '../api/change-password';

export const PASSWORD_MESSAGES = {
  success: 'Password changed successfully!',
  failed: 'Error changing password, please try again.',
  wrongCurrent: 'The current password is not right. Type the one you sign in with now.',
} as const;

/** The server's 400 for a wrong current password (users.service.ts changePassword). */
const WRONG_CURRENT = /current password is incorrect/i;

export function ChangePasswordForm({ onChanged }: { onChanged: (message: string) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string>();
  const [ruleError, setRuleError] = useState<string>();
  const [currentError, setCurrentError] = useState<string>();
  const change = useChangePassword();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const rule = passwordSchema.safeParse(next);
    setRuleError(rule.success ? undefined : rule.error.issues[0]?.message);
    setCurrentError(current ? undefined : 'Current password is required');
    if (!current || !rule.success) return;
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
          onChanged(PASSWORD_MESSAGES.success);
        },
        onError: (err) => {
          // A wrong current password is the person's to fix, next to the field it concerns.
          if (
            err instanceof ApiError &&
            err.status === 400 &&
            WRONG_CURRENT.test(err.serverMessage ?? '')
          )
            setCurrentError(PASSWORD_MESSAGES.wrongCurrent);
          else setError(PASSWORD_MESSAGES.failed);
        },
      },
    );
  }

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <PasswordField
        label="Current password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={Boolean(currentError)}
        helperText={currentError}
        size="small"
      />
      <PasswordField
        label="New password"
        autoComplete="new-password"
        value={next}
        onChange={(e) => setNext(e.target.value)}
        error={Boolean(ruleError)}
        helperText={ruleError}
        size="small"
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Button
        type="submit"
        variant="contained"
        disabled={(!current && !next) || change.isPending}
        sx={{ alignSelf: 'flex-start' }}
      >
        Change password
      </Button>
    </Stack>
  );
}
