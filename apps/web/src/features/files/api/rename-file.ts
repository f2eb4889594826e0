import { renameFileResponseSchema, type RenameFileResponse } from '@inkwell/contract';
import { apiRequest } from '../../../lib/api-client';

/** PATCH /api/rename_file/:id with the new name without its extension. */
export function renameFile(id: number, newName: string): Promise<RenameFileResponse> {
  return apiRequest(`rename_file/${id}`, {
    method: 'PATCH',
    body: { new_name: newName },
    schema: renameFileResponseSchema,
  });
}
