import { useEffect, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { PageContainer } from '../../../components/ui/PageContainer';
import { PasswordField } from '../../../components/ui/PasswordField';
import { ApiError } from '../../../lib/api-client';
import { session } from '../../../lib/session';
import { useLogin } from '../api/login';
import { AUTH_MESSAGES, hasErrors, type FieldErrors } from '../validate';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const login = useLogin();
  const navigate = useNavigate();
  // Why the server signed this person out (a disabled account), shown once, here.
  const [endedReason] = useState(() => session.getSnapshot().endedReason);
  useEffect(() => () => session.forgetEndedReason(), []);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = {
      email: email.trim() ? undefined : AUTH_MESSAGES.emailRequired,
      password: password ? undefined : AUTH_MESSAGES.passwordRequired,
    };
    setErrors(found);
    if (hasErrors(found)) return;
    login.mutate({ email, password }, { onSuccess: () => navigate('/') });
  }

  const failure =
    login.error instanceof ApiError
      ? (login.error.serverMessage ?? AUTH_MESSAGES.loginFailed)
      : login.error && AUTH_MESSAGES.loginFailed;

  return (
    <PageContainer title="Sign in">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {endedReason && !login.error && <Alert severity="warning">{endedReason}</Alert>}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={Boolean(errors.email)}
          helperText={errors.email}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(errors.password)}
          helperText={errors.password}
        />
        {failure && <Alert severity="error">{failure}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={login.isPending}>
          {login.isPending ? 'Signing in...' : 'Sign In'}
        </Button>
        <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
          <Link component={RouterLink} to="/reset-password">
            Forgot Password?
          </Link>
          <Typography variant="body2" component="span">
            No account?{' '}
            <Link component={RouterLink} to="/register">
              Sign Up
            </Link>
          </Typography>
        </Stack>
      </Stack>
    </PageContainer>
  );
}
