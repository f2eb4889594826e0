import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../../lib/session';

/** Signed-in only routes; anonymous visitors go to /login. */
export function RequireAuth() {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}
