import { apiRequest } from '../../../lib/api-client';

/** POST /api/logout revokes the refresh token on the server; failures do not keep the user signed in. */
export async function logout(): Promise<void> {
  await apiRequest('logout', { method: 'POST' });
}
