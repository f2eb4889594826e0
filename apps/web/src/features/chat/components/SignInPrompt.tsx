import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';

/** Shown above the disabled chat input to visitors: the way in is to register or log in. */
export function SignInPrompt() {
  return (
    <Alert severity="info" sx={{ mb: 1 }}>
      Please{' '}
      <Link component={RouterLink} to="/register">
        register
      </Link>{' '}
      or{' '}
      <Link component={RouterLink} to="/login">
        log in
      </Link>{' '}
      to use the chat.
    </Alert>
  );
}
