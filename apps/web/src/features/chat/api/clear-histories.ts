import { apiRequest } from '../../../lib/api-client';

/** POST /api/clearAllHistories (New Topic): empties the conversation stored on the server. */
export function clearHistories(): Promise<unknown> {
  return apiRequest('clearAllHistories', { method: 'POST', withCredentials: true });
}
