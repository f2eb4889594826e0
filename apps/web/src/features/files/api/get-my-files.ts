import { myFilesResponseSchema, type MyFilesResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/my_files: newest first, with the storage used and the quota. */
export function getMyFiles(): Promise<MyFilesResponse> {
  return apiRequest('my_files', { schema: myFilesResponseSchema });
}

export const myFilesQuery = queryOptions({ queryKey: ['files'], queryFn: getMyFiles });

export function useMyFiles(enabled = true) {
  return useQuery({ ...myFilesQuery, enabled });
}
