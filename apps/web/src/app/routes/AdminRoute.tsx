import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { useUser } from '../../features/account/api/get-user';
import { useAdminOverview } from '../../features/admin/api/get-admin-overview';
import { AdminPage } from '../../features/admin/components/AdminPage';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { NotFoundPage } from './NotFoundPage';

/**
 * /admin: the Admin page for operators; everyone else gets the app's 404 page, as for any address
 * that does not exist (the server answers its admin API with 404 to them too).
 */
export function AdminRoute() {
  const { isAuthenticated } = useSession();
  return isAuthenticated ? <OperatorsOnly /> : <NotFoundPage />;
}

function OperatorsOnly() {
  const overview = useAdminOverview();
  const me = useUser();
  if (overview.isPending) return <LinearProgress aria-label="Loading page" />;
  if (overview.isError) {
    if (overview.error instanceof ApiError && overview.error.status === 404)
      return <NotFoundPage />;
    return <Alert severity="error">Error loading the page, please try again.</Alert>;
  }
  return <AdminPage overview={overview.data} currentUserEmail={me.data?.email} />;
}
