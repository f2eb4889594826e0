import { apiRequest } from '../../../lib/api-client';

/** DELETE /api/delete_file/:id. */
export function deleteFile(id: number): Promise<unknown> {
  return apiRequest(`delete_file/${id}`, { method: 'DELETE' });
}
