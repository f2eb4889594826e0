import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { TIMINGS_MS } from '@inkwell/contract';
import { logout } from '../../features/auth/api/logout';
import { delay } from '../../lib/delay';
import { session } from '../../lib/session';

/** Header logout: the 'Logging out...' modal for 2 s, then the session is cleared and off to /login. */
export function useLogoutFlow() {
  const [loggingOut, setLoggingOut] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function start() {
    setLoggingOut(true);
    await Promise.all([logout().catch(() => undefined), delay(TIMINGS_MS.logoutSpinner)]);
    session.clear();
    queryClient.clear();
    setLoggingOut(false);
    navigate('/login');
  }

  return { loggingOut, start };
}
