import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';
import { useUser } from '../../account/api/get-user';

/**
 * Under "the operator has been told", for the operator: that is them, and the Admin page says
 * what is wrong and how to fix it. Loaded only while the model is down (the profile fetch stays
 * out of the first chunk).
 */
export default function OperatorModelHint() {
  const { data } = useUser();
  if (data?.role !== 'operator') return null;
  return (
    <>
      {' '}
      You are the operator:{' '}
      <Link component={RouterLink} to="/admin" color="inherit">
        the Admin page
      </Link>{' '}
      says what is wrong and how to fix it.
    </>
  );
}
