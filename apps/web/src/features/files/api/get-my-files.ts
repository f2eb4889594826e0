import { myFilesResponseSchema, type MyFilesResponse } from '@inkwell/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** How often the list is asked again while a file is being read into the search index. */
export const READING_POLL_MS = 1500;

/** GET /api/my_files: newest first, with the storage used and the quota. */
export function getMyFiles(): Promise<MyFilesResponse> {
  return apiRequest('my_files', { schema: myFilesResponseSchema });
}

export const myFilesQuery = queryOptions({ queryKey: ['files'], queryFn: getMyFiles });

/** While a file is 'reading' (its text extracted and indexed), the list refreshes until it is not. */
const whileReading = (data: MyFilesResponse | undefined) =>
  data?.files.some((f) => f.search === 'reading') ? READING_POLL_MS : false;

export function useMyFiles(enabled = true) {
  return useQuery({
    ...myFilesQuery,
    enabled,
    refetchInterval: (query) => whileReading(query.state.data),
  });
}
