import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { PageContainer } from '../../../components/ui/PageContainer';
import { PasswordField } from '../../../components/ui/PasswordField';
import { ApiError } from '../../../lib/api-client';
import { useRegister } from '../api/register';
import {
  AUTH_MESSAGES,
  emailError,
  hasErrors,
  newPasswordError,
  type FieldErrors,
} from '../validate';
import { TermsCheckbox } from './TermsCheckbox';

type Field = 'first_name' | 'last_name' | 'email' | 'password' | 'confirm';
const LABELS: Record<Field, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  password: 'Password',
  confirm: 'Confirm password',
};

export function RegisterPage() {
  // An invitation link (/register?invite=…&email=…) carries its token and the invited address.
  const [query] = useSearchParams();
  const invite = query.get('invite') ?? undefined;
  // The end of an account deletion (/register?account=deleted): say it is done.
  const deleted = query.get('account') === 'deleted';
  const [values, setValues] = useState<Record<Field, string>>({
    first_name: '',
    last_name: '',
    email: (invite && query.get('email')) || '',
    password: '',
    confirm: '',
  });
  const [accepted, setAccepted] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<Field | 'terms'>>({});
  const register = useRegister();
  const navigate = useNavigate();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found: FieldErrors<Field | 'terms'> = {
      email: emailError(values.email),
      password: newPasswordError(values.password),
      confirm: values.password !== values.confirm ? AUTH_MESSAGES.passwordsMismatch : undefined,
      terms: accepted ? undefined : AUTH_MESSAGES.acceptTerms,
    };
    setErrors(found);
    if (hasErrors(found)) return;
    const { confirm: _confirm, ...fields } = values;
    register.mutate(invite ? { ...fields, invite } : fields, { onSuccess: () => navigate('/') });
  }

  const failure =
    register.error instanceof ApiError
      ? (register.error.serverMessage ?? AUTH_MESSAGES.registerFailed)
      : register.error && AUTH_MESSAGES.registerFailed;

  const field = (name: Field) => ({
    label: LABELS[name],
    value: values[name],
    onChange: (e: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: e.target.value })),
    error: Boolean(errors[name]),
    helperText: errors[name],
  });

  return (
    <PageContainer title="Sign Up">
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
        {deleted && (
          <Alert severity="success">
            Your account has been deleted, with your files and chat history.
          </Alert>
        )}
        {invite && (
          <Alert severity="info">You are signing up with an invitation; it works once.</Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField {...field('first_name')} autoComplete="given-name" fullWidth />
          <TextField {...field('last_name')} autoComplete="family-name" fullWidth />
        </Stack>
        <TextField {...field('email')} type="email" autoComplete="email" required />
        <PasswordField {...field('password')} autoComplete="new-password" required />
        <PasswordField {...field('confirm')} autoComplete="new-password" required />
        <TermsCheckbox checked={accepted} onChange={setAccepted} error={errors.terms} />
        {failure && <Alert severity="error">{failure}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={register.isPending}>
          {register.isPending ? 'Signing Up...' : 'Sign Up'}
        </Button>
        <Typography variant="body2">
          Already have an account?{' '}
          <Link component={RouterLink} to="/login">
            Sign in
          </Link>
        </Typography>
      </Stack>
    </PageContainer>
  );
}
