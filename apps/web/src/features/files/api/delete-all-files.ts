import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/delete_all_files. */
export function deleteAllFiles(): Promise<unknown> {
  return apiRequest('delete_all_files', { method: 'DELETE' });
}
