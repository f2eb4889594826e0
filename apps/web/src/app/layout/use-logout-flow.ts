import { lazy, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { TIMINGS_MS } from '@inkwell/contract';
import { logout } from '../../features/auth/api/logout';
import { delay } from '../../lib/delay';
import { session } from '../../lib/session';

/** The modal's code: loaded on the first logout, outside what `/` loads to render. */
export const loadLogoutModal = () => import('./LogoutModal');
export const LazyLogoutModal = lazy(() =>
  loadLogoutModal().then((m) => ({ default: m.LogoutModal })),
);

/**
 * Header logout: the 'Logging out...' modal for 2 s, then the session is cleared and off to
 * /login. Held by the top bar, not the account menu: a request answered 401 while the logout
 * runs clears the session early, which takes the account menu away (and would take the modal
 * and the way to /login with it).
 */
export function useLogoutFlow() {
  const [loggingOut, setLoggingOut] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function start() {
    // The modal's code first: its 2 s count from when it can show (a slow chunk ate them).
    await loadLogoutModal().catch(() => undefined);
    setLoggingOut(true);
    await Promise.all([logout().catch(() => undefined), delay(TIMINGS_MS.logoutSpinner)]);
    session.clear();
    queryClient.clear();
    setLoggingOut(false);
    navigate('/login');
  }

  return { loggingOut, start };
}
